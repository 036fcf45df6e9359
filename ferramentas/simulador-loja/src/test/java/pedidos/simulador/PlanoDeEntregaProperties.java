package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

class PlanoDeEntregaProperties {

  static final Instant INICIO = GeradorProperties.INICIO;
  static final Duration ATRASO = Duration.ofMillis(500);

  @Property(tries = 30)
  void mesmaSementeMesmoPlano(@ForAll long semente) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, 30, "t", INICIO, 300);
    assertThat(PlanoDeEntrega.planejar(pedidos, semente, 0.2, 0.4, ATRASO))
        .isEqualTo(PlanoDeEntrega.planejar(pedidos, semente, 0.2, 0.4, ATRASO));
  }

  @Property(tries = 50)
  void todoEventoOuSePerdeOuSaiDeUmaATresVezesDepoisDeAcontecer(
      @ForAll long semente,
      @ForAll @DoubleRange(min = 0, max = 1) double perda,
      @ForAll @DoubleRange(min = 0, max = 1) double duplicacao,
      @ForAll @IntRange(min = 1, max = 40) int quantidade) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, quantidade, "t", INICIO, 300);
    PlanoDeEntrega plano = PlanoDeEntrega.planejar(pedidos, semente, perda, duplicacao, ATRASO);

    Map<String, Integer> copias = new HashMap<>();
    for (PlanoDeEntrega.Envio envio : plano.envios()) {
      copias.merge(envio.evento().eventoId(), 1, Integer::sum);
      assertThat(envio.quando()).isAfterOrEqualTo(envio.evento().ocorridoEm());
      if (!envio.evento().atrasado()) {
        assertThat(envio.quando()).isBefore(envio.evento().ocorridoEm().plus(ATRASO));
      }
    }
    int eventos = 0;
    for (PedidoGerado pedido : pedidos) {
      for (EventoDaLoja evento : pedido.eventos()) {
        eventos++;
        boolean perdido = plano.perdidos().contains(evento);
        assertThat(copias.containsKey(evento.eventoId())).isNotEqualTo(perdido);
        assertThat(copias.getOrDefault(evento.eventoId(), 1)).isBetween(1, 3);
      }
    }
    assertThat(plano.eventos()).isEqualTo(eventos);
    assertThat(plano.envios()).isSortedAccordingTo((a, b) -> a.quando().compareTo(b.quando()));
    assertThat(plano.duplicatas()).isEqualTo(plano.envios().size() - copias.size());
  }

  @Property(tries = 30)
  void oPagamentoAtrasadoSaiDepoisDoCancelamento(@ForAll long semente) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, 40, "t", INICIO, 300);
    PlanoDeEntrega plano = PlanoDeEntrega.planejar(pedidos, semente, 0, 0.5, ATRASO);
    for (PedidoGerado pedido : pedidos) {
      for (int k = 0; k + 1 < pedido.eventos().size(); k++) {
        EventoDaLoja atrasado = pedido.eventos().get(k);
        if (!atrasado.atrasado()) {
          continue;
        }
        EventoDaLoja seguinte = pedido.eventos().get(k + 1);
        Instant ultimaDoSeguinte = ultimoEnvio(plano, seguinte);
        plano.envios().stream()
            .filter(e -> e.evento().equals(atrasado))
            .forEach(e -> assertThat(e.quando()).isAfter(ultimaDoSeguinte));
      }
    }
  }

  @Property(tries = 10)
  void extremos(@ForAll long semente) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, 30, "t", INICIO, 300);
    assertThat(PlanoDeEntrega.planejar(pedidos, semente, 1, 1, ATRASO).envios()).isEmpty();
    PlanoDeEntrega semPerdaNemDuplicata = PlanoDeEntrega.planejar(pedidos, semente, 0, 0, ATRASO);
    assertThat(semPerdaNemDuplicata.perdidos()).isEmpty();
    assertThat(semPerdaNemDuplicata.duplicatas()).isZero();
    assertThat(semPerdaNemDuplicata.envios()).hasSize(semPerdaNemDuplicata.eventos());
    PlanoDeEntrega semAtraso = PlanoDeEntrega.planejar(pedidos, semente, 0, 0, Duration.ZERO);
    semAtraso.envios().stream()
        .filter(e -> !e.evento().atrasado())
        .forEach(e -> assertThat(e.quando()).isEqualTo(e.evento().ocorridoEm()));
  }

  @Property(tries = 10)
  void aFracaoPerdidaSegueAConfiguracao(@ForAll long semente) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, 500, "t", INICIO, 300);
    PlanoDeEntrega plano = PlanoDeEntrega.planejar(pedidos, semente, 0.3, 0.3, ATRASO);
    double perdidos = plano.perdidos().size() / (double) plano.eventos();
    assertThat(perdidos).isBetween(0.25, 0.35);
  }

  private static Instant ultimoEnvio(PlanoDeEntrega plano, EventoDaLoja evento) {
    return plano.envios().stream()
        .filter(e -> e.evento().equals(evento))
        .map(PlanoDeEntrega.Envio::quando)
        .max(Instant::compareTo)
        .orElse(Instant.MIN);
  }
}
