package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import pedidos.dominio.DobraCanonica;
import pedidos.dominio.Fato;
import pedidos.dominio.Status;

class GeradorProperties {

  static final Instant INICIO = Instant.parse("2026-11-29T12:00:00Z");
  static final double TAXA = 300;

  @Property(tries = 50)
  void mesmaSementeGeraOsMesmosPedidos(
      @ForAll long semente, @ForAll @IntRange(min = 1, max = 80) int quantidade) {
    assertThat(Gerador.gerar(semente, quantidade, "t", INICIO, TAXA))
        .isEqualTo(Gerador.gerar(semente, quantidade, "t", INICIO, TAXA));
  }

  @Property(tries = 30)
  void outraSementeGeraOutrosPedidos(@ForAll long uma, @ForAll long outra) {
    Assume.that(uma != outra);
    assertThat(Gerador.gerar(uma, 40, "t", INICIO, TAXA))
        .isNotEqualTo(Gerador.gerar(outra, 40, "t", INICIO, TAXA));
  }

  @Property(tries = 30)
  void todoCicloApareceVersionadoPorSequenciaEPorInstante(
      @ForAll long semente, @ForAll @IntRange(min = 18, max = 150) int quantidade) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, quantidade, "t", INICIO, TAXA);

    Set<String> combinacoes = new HashSet<>();
    pedidos.forEach(p -> combinacoes.add(p.ciclo() + "/" + p.porSequencia()));
    assertThat(combinacoes).hasSize(2 * Ciclo.values().length);
    assertThat(pedidos).anyMatch(p -> p.porSequencia() && p.temEmpate());
    assertThat(pedidos).anyMatch(p -> !p.porSequencia() && p.temEmpate());
    assertThat(pedidos)
        .as("the first fact sometimes lacks total and email")
        .anyMatch(
            p ->
                p.eventos().get(0).totalCentavos() == null
                    && p.eventos().get(0).clienteEmail() == null);
    assertThat(pedidos).anyMatch(p -> p.eventos().stream().anyMatch(EventoDaLoja::atrasado));
  }

  @Property(tries = 50)
  void eventosSaoConsistentesComSeuPedidoESuaVersao(
      @ForAll long semente, @ForAll @IntRange(min = 1, max = 80) int quantidade) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, quantidade, "t", INICIO, TAXA);
    Set<String> ids = new HashSet<>();
    int eventos = 0;
    for (PedidoGerado pedido : pedidos) {
      assertThat(ids.add(pedido.id())).isTrue();
      List<Status> statuses = new ArrayList<>();
      EventoDaLoja anterior = null;
      for (EventoDaLoja evento : pedido.eventos()) {
        eventos++;
        assertThat(ids.add(evento.eventoId())).as("unique ids").isTrue();
        assertThat(evento.pedidoId()).isEqualTo(pedido.id());
        assertThat(evento.posicao()).isEqualTo(statuses.size());
        statuses.add(evento.status());
        assertThat(evento.totalCentavos()).isIn(null, pedido.totalCentavos());
        assertThat(evento.clienteEmail()).isIn(null, pedido.clienteEmail());
        assertThat(evento.sequence() != null).isEqualTo(pedido.porSequencia());
        Fato fato = evento.fato();
        assertThat(fato.versao())
            .isEqualTo(
                pedido.porSequencia()
                    ? evento.sequence()
                    : evento.ocorridoEm().toEpochMilli() * 10 + evento.status().rank());
        if (anterior != null) {
          assertThat(evento.ocorridoEm()).isAfterOrEqualTo(anterior.ocorridoEm());
          if (pedido.porSequencia()) {
            assertThat(evento.sequence()).isGreaterThanOrEqualTo(anterior.sequence());
          }
        }
        anterior = evento;
      }
      assertThat(statuses).isEqualTo(pedido.ciclo().statuses());
      assertThat(VistaDoPedido.de(pedido, pedido.ultimo()).fato().status())
          .isEqualTo(pedido.ultimo().status());
    }
    // Ties share a slot, so the timeline is at most one slot per event long.
    Instant ultimo = INICIO.plusMillis((long) Math.ceil(eventos * 1000 / TAXA));
    pedidos.forEach(
        p -> p.eventos().forEach(e -> assertThat(e.ocorridoEm()).isBetween(INICIO, ultimo)));
  }

  @Property(tries = 30)
  void cadaCicloTemOFimCanonicoDaSemente(@ForAll long semente) {
    for (PedidoGerado pedido : Gerador.gerar(semente, 40, "t", INICIO, TAXA)) {
      List<Fato> fatos = pedido.eventos().stream().map(EventoDaLoja::fato).toList();
      Status fim = DobraCanonica.dobrar(fatos).estado().status();
      Status esperado =
          switch (pedido.ciclo()) {
            // A terminal status is never left except towards reembolsado.
            case ENVIADO_DEPOIS_DE_CANCELADO,
                PAGAMENTO_DEPOIS_DO_CANCELAMENTO,
                PAGAMENTO_ATRASADO ->
                Status.CANCELADO;
            case PAGO_DEPOIS_DE_REEMBOLSADO -> Status.REEMBOLSADO;
            default -> pedido.ultimo().status();
          };
      assertThat(fim).as(pedido.ciclo().name()).isEqualTo(esperado);
    }
  }

  @Property(tries = 10)
  void aTaxaEspacaALinhaDoTempo(@ForAll long semente) {
    List<PedidoGerado> pedidos = Gerador.gerar(semente, 100, "t", INICIO, 100);
    Instant ultimo =
        pedidos.stream()
            .map(PedidoGerado::ultimo)
            .map(EventoDaLoja::ocorridoEm)
            .max(Instant::compareTo)
            .orElseThrow();
    long eventos = pedidos.stream().mapToLong(p -> p.eventos().size()).sum();
    // 100 events per second: about eventos/100 seconds, less the ties that share a slot.
    assertThat(Duration.between(INICIO, ultimo))
        .isLessThanOrEqualTo(Duration.ofMillis(eventos * 10))
        .isGreaterThan(Duration.ofMillis(eventos * 10 / 2));
    assertThat(EnumSet.copyOf(pedidos.stream().map(PedidoGerado::ciclo).toList()))
        .containsExactlyInAnyOrder(Ciclo.values());
  }
}
