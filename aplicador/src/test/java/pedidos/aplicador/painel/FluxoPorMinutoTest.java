package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.infra.InfraLocal;

/**
 * One round of the flow per minute: this instance's applies and their times from its meters, the
 * backlog sampled (and on the Prometheus gauges), the received events counted from the inbox.
 */
@Tag("todas-as-versoes-do-postgres")
class FluxoPorMinutoTest extends ContextoDoAplicador {

  @Autowired FluxoPorMinuto fluxo;
  @Autowired MeterRegistry registro;

  private final JdbcClient dono =
      JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource());

  @Test
  void umaRodadaSomaAplicadosAmostraOBacklogEContaOsRecebidos() {
    String id = "fluxo-" + UUID.randomUUID().toString().substring(0, 8);
    // A backlog: a row pending for an hour.
    dono.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
            VALUES (?, ?, 'order.paid', '{}', now() - interval '1 hour')
            """)
        .params(id, id)
        .update();
    // The window's minutes counted afresh by the next round, the row above among them.
    dono.sql(
            "DELETE FROM fluxo_por_minuto"
                + " WHERE minuto BETWEEN now() - interval '4 hours' AND now() + interval '1 minute'")
        .update();
    fluxo.rodada(); // whatever this context applied before is written now
    Instant desde = Instant.now().truncatedTo(ChronoUnit.MINUTES);
    long[] antes = somados(desde);

    Counter aplicados =
        registro.counter("aplicador.eventos", "resultado", "aplicado", "origem", "kafka");
    Timer tempo =
        Timer.builder("aplicador.aplicacao")
            .tag("origem", "kafka")
            .publishPercentileHistogram()
            .register(registro);
    for (int i = 0; i < 10; i++) {
      aplicados.increment();
      tempo.record(Duration.ofMillis(3));
    }
    aplicados.increment();
    tempo.record(Duration.ofMillis(300));
    fluxo.rodada();

    long[] depois = somados(desde);
    assertThat(depois[0] - antes[0]).as("applied").isEqualTo(11);
    int ate5ms = 1 + indice(5);
    int ate250ms = 1 + indice(250);
    int ate500ms = 1 + indice(500);
    assertThat(depois[ate5ms] - antes[ate5ms]).as("within 5 ms").isEqualTo(10);
    assertThat(depois[ate250ms] - antes[ate250ms]).as("within 250 ms").isEqualTo(10);
    assertThat(depois[ate500ms] - antes[ate500ms]).as("within 500 ms").isEqualTo(11);
    int todos = 1 + FluxoPorMinuto.LIMITES_MS.length;
    assertThat(depois[todos] - antes[todos]).as("all").isEqualTo(11);
    assertThat(depois[depois.length - 1] - antes[antes.length - 1])
        .as("by result: aplicado")
        .isEqualTo(11);

    OffsetDateTime minuto =
        OffsetDateTime.ofInstant(Instant.now().truncatedTo(ChronoUnit.MINUTES), ZoneOffset.UTC);
    var amostra =
        dono.sql(
                """
                SELECT pendentes, pendente_idade_s, recebidos,
                       (SELECT count(*) FROM webhook_eventos
                         WHERE recebido_em >= f.minuto - interval '1 hour'
                           AND recebido_em < f.minuto - interval '59 minutes') AS recebidos_ha_uma_hora,
                       (SELECT recebidos FROM fluxo_por_minuto
                         WHERE minuto = f.minuto - interval '1 hour') AS contados_ha_uma_hora
                  FROM fluxo_por_minuto f WHERE minuto >= ? AND minuto <= now()
                 ORDER BY minuto DESC LIMIT 1
                """)
            .param(minuto.minusMinutes(1))
            .query(
                (rs, n) ->
                    new double[] {
                      rs.getLong("pendentes"),
                      rs.getDouble("pendente_idade_s"),
                      rs.getLong("recebidos"),
                      rs.getLong("recebidos_ha_uma_hora"),
                      rs.getLong("contados_ha_uma_hora")
                    })
            .single();
    assertThat(amostra[0]).as("pending").isGreaterThanOrEqualTo(1);
    assertThat(amostra[1]).as("oldest pending age").isGreaterThanOrEqualTo(3600);
    assertThat(amostra[4])
        .as("received an hour ago, counted from the inbox (the round counts the window shown)")
        .isEqualTo(amostra[3])
        .isGreaterThanOrEqualTo(1);
    assertThat(registro.get("aplicador.caixa.pendente.idade").gauge().value())
        .isGreaterThanOrEqualTo(3600);
    assertThat(registro.get("aplicador.caixa.pendentes").gauge().value()).isGreaterThanOrEqualTo(1);

    dono.sql(
            "UPDATE webhook_eventos SET aplicado_em = now(), resultado = 'aplicado' WHERE evento_id = ?")
        .param(id)
        .update();
  }

  @Test
  void percentisDosBaldesAcumulados() {
    // 100 applies: 10 within 2 ms, 60 within 5 ms, 99 within 250 ms, all within 500 ms.
    long[] baldes = {0, 10, 60, 90, 95, 97, 98, 99, 100, 100, 100, 100, 100, 100, 100};
    assertThat(FluxoDoPainel.percentil(baldes, 0.5)).isCloseTo(2 + 3 * 0.8, within());
    assertThat(FluxoDoPainel.percentil(baldes, 0.99)).isCloseTo(250.0, within());
    assertThat(FluxoDoPainel.percentil(new long[15], 0.5)).isNull();
    assertThat(FluxoDoPainel.percentil(new long[0], 0.5)).isNull();
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-9);
  }

  private static int indice(long limiteMs) {
    for (int i = 0; i < FluxoPorMinuto.LIMITES_MS.length; i++) {
      if (FluxoPorMinuto.LIMITES_MS[i] == limiteMs) {
        return i;
      }
    }
    throw new IllegalArgumentException("no bound " + limiteMs);
  }

  /**
   * Applied, each apply-time bucket then all applies, and last the applied with result {@code
   * aplicado}: summed over the minutes from {@code desde} on.
   */
  private long[] somados(Instant desde) {
    long[] soma = new long[FluxoPorMinuto.LIMITES_MS.length + 3];
    dono.sql(
            "SELECT aplicados, aplicacao_ms, coalesce((resultados ->> 'aplicado')::bigint, 0)"
                + " AS aplicado FROM fluxo_por_minuto WHERE minuto >= ?")
        .param(OffsetDateTime.ofInstant(desde, ZoneOffset.UTC))
        .query(
            (rs, n) -> {
              soma[0] += rs.getLong("aplicados");
              soma[soma.length - 1] += rs.getLong("aplicado");
              Object[] baldes = (Object[]) rs.getArray("aplicacao_ms").getArray();
              for (int i = 0; i < baldes.length; i++) {
                soma[1 + i] += ((Number) baldes[i]).longValue();
              }
              return null;
            })
        .list();
    return soma;
  }
}
