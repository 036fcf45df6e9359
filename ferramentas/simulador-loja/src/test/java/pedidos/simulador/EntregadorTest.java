package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import pedidos.contrato.AssinaturaDeWebhook;

class EntregadorTest {

  private static final String SEGREDO = "segredo-de-teste";

  @Test
  void todoEventoNaoPerdidoEConfirmadoMesmoComFalhasEDuplicatas() throws Exception {
    List<PedidoGerado> pedidos = Gerador.gerar(3, 60, "e", Clock.systemUTC().instant(), 2000);
    PlanoDeEntrega plano = PlanoDeEntrega.planejar(pedidos, 3, 0.1, 0.5, Duration.ofMillis(50));
    // Every third event is refused with a 503 on its first two attempts.
    ReceptorDeTeste.Politica politica =
        (id, tentativa) -> Math.floorMod(id.hashCode(), 3) == 0 && tentativa <= 2 ? 503 : 200;
    var registro = new RegistroDeEntregas();

    ResumoDaEntrega resumo;
    try (var receptor = new ReceptorDeTeste(SEGREDO, politica)) {
      resumo =
          entregador(receptor, Duration.ofSeconds(2))
              .entregar(plano, registro, Duration.ofSeconds(30));

      Set<String> perdidos =
          plano.perdidos().stream().map(EventoDaLoja::eventoId).collect(Collectors.toSet());
      Set<String> naoPerdidos =
          pedidos.stream()
              .flatMap(p -> p.eventos().stream())
              .map(EventoDaLoja::eventoId)
              .filter(id -> !perdidos.contains(id))
              .collect(Collectors.toSet());
      assertThat(perdidos).isNotEmpty();
      assertThat(registro.confirmados()).isEqualTo(naoPerdidos);
      assertThat(receptor.recebimentos).allMatch(ReceptorDeTeste.Recebimento::assinaturaValida);
      assertThat(receptor.recebimentos).noneMatch(r -> perdidos.contains(r.eventoId()));
      for (String id : naoPerdidos) {
        if (Math.floorMod(id.hashCode(), 3) == 0) {
          assertThat(receptor.vezes(id))
              .as("redelivered after 503: " + id)
              .isGreaterThanOrEqualTo(3);
        }
      }
      assertThat(receptor.recebimentos.stream().filter(r -> r.resposta() == 200).count())
          .as("duplicates acknowledged again")
          .isGreaterThan(naoPerdidos.size());
    }
    assertThat(resumo.perdidos()).isEqualTo(plano.perdidos().size());
    assertThat(resumo.duplicatasEnviadas()).isEqualTo(plano.duplicatas()).isPositive();
    assertThat(resumo.reenvios()).isPositive();
    assertThat(resumo.falhas()).isEqualTo(resumo.reenvios());
    assertThat(resumo.recusados()).isZero();
    assertThat(resumo.semConfirmacao()).isZero();
    assertThat(registro.incertos()).isEmpty();
  }

  @Test
  void reenviaApos408429ESemRespostaMasNaoAposOutro4xx() throws Exception {
    List<PedidoGerado> pedidos = Gerador.gerar(5, 2, "r", Clock.systemUTC().instant(), 1000);
    List<EventoDaLoja> eventos = pedidos.stream().flatMap(p -> p.eventos().stream()).toList();
    String recusado = eventos.get(0).eventoId();
    String comTimeout = eventos.get(1).eventoId();
    String com408 = eventos.get(2).eventoId();
    String com429 = eventos.get(3).eventoId();
    ReceptorDeTeste.Politica politica =
        (id, tentativa) -> {
          if (id.equals(recusado)) {
            return 400;
          }
          if (tentativa > 1) {
            return 200;
          }
          if (id.equals(comTimeout)) {
            return 0;
          }
          return id.equals(com408) ? 408 : id.equals(com429) ? 429 : 200;
        };
    PlanoDeEntrega plano = PlanoDeEntrega.planejar(pedidos, 5, 0, 0, Duration.ZERO);
    var registro = new RegistroDeEntregas();

    try (var receptor = new ReceptorDeTeste(SEGREDO, politica)) {
      ResumoDaEntrega resumo =
          entregador(receptor, Duration.ofMillis(300))
              .entregar(plano, registro, Duration.ofSeconds(30));

      assertThat(receptor.vezes(recusado)).isEqualTo(1);
      assertThat(registro.recusados()).containsEntry(recusado, 400).hasSize(1);
      for (String id : List.of(comTimeout, com408, com429)) {
        assertThat(receptor.vezes(id)).as(id).isEqualTo(2);
        assertThat(registro.confirmados()).contains(id);
      }
      assertThat(registro.confirmados()).hasSize(eventos.size() - 1);
      assertThat(registro.incertos()).containsExactly(recusado);
      assertThat(resumo.recusados()).isEqualTo(1);
      assertThat(resumo.reenvios()).isEqualTo(3);
    }
  }

  @Test
  void desisteNoPrazoEOsEventosFicamIncertos() throws Exception {
    List<PedidoGerado> pedidos = Gerador.gerar(9, 3, "d", Clock.systemUTC().instant(), 1000);
    PlanoDeEntrega plano = PlanoDeEntrega.planejar(pedidos, 9, 0, 0, Duration.ZERO);
    var registro = new RegistroDeEntregas();

    try (var receptor = new ReceptorDeTeste(SEGREDO, (id, tentativa) -> 503)) {
      ResumoDaEntrega resumo =
          entregador(receptor, Duration.ofSeconds(2))
              .entregar(plano, registro, Duration.ofSeconds(1));

      assertThat(resumo.confirmados()).isZero();
      assertThat(resumo.semConfirmacao()).isEqualTo(plano.eventos());
      assertThat(registro.incertos()).hasSize(plano.eventos());
      assertThat(resumo.reenvios()).isPositive();
    }
  }

  private static Entregador entregador(ReceptorDeTeste receptor, Duration timeout) {
    return new Entregador(
        receptor.url(),
        AssinaturaDeWebhook.doSegredo(SEGREDO),
        8,
        timeout,
        Duration.ofMillis(20),
        Duration.ofMillis(200),
        Clock.systemUTC());
  }
}
