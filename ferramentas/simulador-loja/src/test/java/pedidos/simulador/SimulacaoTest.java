package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The programmatic API end to end, against the reference system over real HTTP, PostgreSQL and
 * Kafka: the way the project's end-to-end tests drive the real services.
 */
class SimulacaoTest {

  private static final String SEGREDO = "segredo-e2e";

  @Test
  void convergeComPerdasRecuperadasPelaReconciliacao() throws Exception {
    BancoDeTeste banco = BancoDeTeste.novo();
    String topico = KafkaDeTeste.topicoNovo();
    List<Progresso> progresso = new CopyOnWriteArrayList<>();
    try (var sistema = new SistemaDeReferencia(banco, topico, true);
        var receptor = new ReceptorDeReferencia(sistema, SEGREDO, 0.1);
        var simulacao =
            Simulacao.builder()
                .receptor(receptor.url())
                .segredo(SEGREDO)
                .banco(banco.url(), banco.usuario(), banco.senha())
                .kafka(KafkaDeTeste.bootstrap(), KafkaDeTeste.seguranca())
                .topicoDeEfeitos(topico)
                .pedidos(80)
                .taxa(800)
                .perda(0.1)
                .duplicacao(0.3)
                .atrasoMaximo(Duration.ofMillis(300))
                .reenvio(Duration.ofMillis(20), Duration.ofMillis(200))
                .espera(Duration.ofSeconds(40))
                .intervaloDeVerificacao(Duration.ofMillis(200))
                .semente(42)
                .prefixo("e2e")
                .progresso(progresso::add)
                .construir()) {
      URI api = simulacao.iniciarApi();
      try (var reconciliador =
          new ReconciliadorDeReferencia(
              sistema, api, simulacao.tokenDaApi(), Duration.ofMillis(300))) {
        ResumoDaEntrega entrega = simulacao.entregar();
        Relatorio relatorio = simulacao.verificar();
        System.out.println(relatorio.texto());

        assertThat(relatorio.divergencias()).isEmpty();
        assertThat(relatorio.ok()).isTrue();
        assertThat(simulacao.pedidos()).hasSize(80).allMatch(id -> id.startsWith("ord_e2e_"));
        assertThat(entrega.perdidos()).isPositive();
        assertThat(entrega.duplicatasEnviadas()).isPositive();
        assertThat(entrega.reenvios()).as("503s were redelivered").isPositive();
        assertThat(entrega.confirmados()).isEqualTo(entrega.eventos() - entrega.perdidos());
        assertThat(relatorio.entrega()).isEqualTo(entrega);
        assertThat(relatorio.pedidosReconciliados()).isPositive();
        assertThat(relatorio.vistasServidas()).isPositive();
        assertThat(relatorio.resultados()).containsKeys("aplicado", "evento_antigo");
        // The reference relay publishes every effect twice; the picking side keeps one.
        assertThat(relatorio.separacao().duplicadas()).isEqualTo(relatorio.separacao().efeitos());
        assertThat(progresso).anyMatch(p -> p.fase().equals("entrega"));
        assertThat(progresso).anyMatch(p -> p.fase().equals("verificacao"));
        assertThatThrownBy(simulacao::entregar).isInstanceOf(IllegalStateException.class);
      }
    }
  }

  @Test
  void configuracaoInvalidaERecusada() {
    var semSegredo = Simulacao.builder().receptor(URI.create("http://127.0.0.1:1"));
    assertThatThrownBy(semSegredo::construir).isInstanceOf(IllegalArgumentException.class);
    var perdaDemais =
        Simulacao.builder().receptor(URI.create("http://127.0.0.1:1")).segredo("s").perda(1.5);
    assertThatThrownBy(perdaDemais::construir).hasMessageContaining("perda");
    var prefixoRuim =
        Simulacao.builder().receptor(URI.create("http://127.0.0.1:1")).segredo("s").prefixo("a:b");
    assertThatThrownBy(prefixoRuim::construir).hasMessageContaining("prefixo");
  }

  @Test
  void verificarAntesDeEntregarERecusado() {
    try (var simulacao =
        Simulacao.builder().receptor(URI.create("http://127.0.0.1:1")).segredo("s").construir()) {
      assertThatThrownBy(simulacao::verificar).isInstanceOf(IllegalStateException.class);
      assertThat(simulacao.pedidos()).isEmpty();
    }
  }
}
