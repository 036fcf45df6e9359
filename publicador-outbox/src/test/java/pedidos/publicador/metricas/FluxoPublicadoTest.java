package pedidos.publicador.metricas;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.testes.InfraDeTeste;

/** The relay adds what it published to the flow per minute, as its own role, without losing any. */
@Tag("todas-as-versoes-do-postgres")
class FluxoPublicadoTest {

  // A minute of its own: other tests' relays write the current one.
  private static final Instant MINUTO = Instant.parse("2099-01-02T03:04:00Z");

  // The owner's connection, to arrange and check outside the relay's role.
  private static final JdbcClient DONO =
      JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource());

  @Test
  void somaAoMinutoOQueOutboxPublicouDesdeAUltimaVez() {
    InfraDeTeste.prepararUmaVez(InfraLocal.compartilhada().postgres());
    SimpleMeterRegistry registro = new SimpleMeterRegistry();
    MetricasDoPublicador metricas =
        new MetricasDoPublicador(registro, Clock.fixed(MINUTO, ZoneOffset.UTC));
    FluxoPublicado fluxo =
        new FluxoPublicado(
            JdbcClient.create(
                InfraLocal.compartilhada().postgres().dataSource(PapelNoBanco.PUBLICADOR)),
            metricas,
            Clock.fixed(MINUTO.plusSeconds(42), ZoneOffset.UTC),
            new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("publicador", PublicadorProperties.class));
    DONO.sql("DELETE FROM fluxo_por_minuto WHERE minuto = ?")
        .param(Timestamp.from(MINUTO))
        .update();

    contador(registro, "outbox", "cdc").increment(3);
    contador(registro, "outbox", "reenvio").increment(2);
    // Inbox rows are the received events' business, counted from the inbox: not "published".
    contador(registro, "webhook_eventos", "cdc").increment(7);
    fluxo.somar();
    assertThat(publicados()).isEqualTo(5);

    fluxo.somar();
    assertThat(publicados()).as("nothing new, nothing added").isEqualTo(5);

    contador(registro, "outbox", "cdc").increment(4);
    fluxo.somar();
    assertThat(publicados()).isEqualTo(9);
  }

  private static io.micrometer.core.instrument.Counter contador(
      SimpleMeterRegistry registro, String tabela, String via) {
    return registro
        .get("publicador.linhas.publicadas")
        .tag("tabela", tabela)
        .tag("via", via)
        .counter();
  }

  private static long publicados() {
    return DONO.sql("SELECT publicados FROM fluxo_por_minuto WHERE minuto = ?")
        .param(Timestamp.from(MINUTO))
        .query(Long.class)
        .single();
  }
}
