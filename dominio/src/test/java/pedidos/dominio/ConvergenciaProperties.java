package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import pedidos.dominio.Historias.Evento;
import pedidos.dominio.Historias.Historia;

/** Thousands of random histories: state converges, re-applying is idempotent, effects behave. */
class ConvergenciaProperties {

  @Provide
  Arbitrary<Historia> historias() {
    return Historias.historias();
  }

  @Property(tries = 3000)
  void oEstadoAplicadoEOCanonico(@ForAll("historias") Historia historia) {
    AplicadorEmMemoria aplicador = entregar(historia.chegadas());
    Semente canonico = Semente.emOrdemDeVersao(historia.fatos());

    assertThat(aplicador.estado()).isEqualTo(canonico.estado());
    assertThat(resultadosDosFatos(aplicador, historia)).isEqualTo(canonico.resultados());
  }

  @Property(tries = 2000)
  void aOrdemDeChegadaEAsDuplicatasNaoImportam(
      @ForAll("historias") Historia uma, @ForAll("historias") Historia outraOrdem) {
    // the same events, in another arrival order with other duplicates
    Historia mesmaHistoria = new Historia(uma.eventos(), reordenar(uma, outraOrdem));
    AplicadorEmMemoria primeiro = entregar(uma.chegadas());
    AplicadorEmMemoria segundo = entregar(mesmaHistoria.chegadas());

    assertThat(segundo.estado()).isEqualTo(primeiro.estado());
    assertThat(segundo.resultados()).isEqualTo(primeiro.resultados());
  }

  @Property(tries = 2000)
  void duplicatasNaoMudamNada(@ForAll("historias") Historia historia) {
    AplicadorEmMemoria comDuplicatas = entregar(historia.chegadas());
    AplicadorEmMemoria semDuplicatas = entregar(historia.semDuplicatas());

    assertThat(comDuplicatas.estado()).isEqualTo(semDuplicatas.estado());
    assertThat(comDuplicatas.outbox()).isEqualTo(semDuplicatas.outbox());
    assertThat(comDuplicatas.resultados()).isEqualTo(semDuplicatas.resultados());
  }

  @Property(tries = 2000)
  void aplicarDuasVezesEAplicarUma(@ForAll("historias") Historia historia) {
    AplicadorEmMemoria aplicador = entregar(historia.chegadas());
    EstadoDoPedido estado = aplicador.estado();
    List<Efeito> outbox = aplicador.outbox();
    Map<String, Resultado> resultados = new HashMap<>(aplicador.resultados());

    for (Fato fato : historia.fatos()) {
      aplicador.forcar(fato);
      assertThat(aplicador.ultima().efeitos()).isEmpty();
      assertThat(aplicador.estado()).isEqualTo(estado);
    }
    assertThat(aplicador.outbox()).isEqualTo(outbox);
    assertThat(aplicador.resultados()).isEqualTo(resultados);
  }

  @Property(tries = 3000)
  void efeitosSaemSoDeTransicoesReais(@ForAll("historias") Historia historia) {
    AplicadorEmMemoria aplicador = entregar(historia.chegadas());
    boolean observouPago = false;
    boolean observouPagoParaCancelado = false;

    for (AplicadorEmMemoria.Observacao observacao : aplicador.observacoes()) {
      Status antes = observacao.antes() == null ? null : observacao.antes().status();
      Status depois = observacao.aplicacao().estado().status();
      observouPago |= depois == Status.PAGO;
      observouPagoParaCancelado |= antes == Status.PAGO && depois == Status.CANCELADO;
      for (Efeito efeito : observacao.aplicacao().efeitos()) {
        assertThat(depois).as("an effect needs a transition").isNotEqualTo(antes);
        switch (efeito) {
          case LIBERAR_SEPARACAO -> {
            assertThat(depois).isEqualTo(Status.PAGO);
            assertThat(antes == null || !antes.terminal())
                .as("a payment applied after a cancellation releases nothing")
                .isTrue();
          }
          case INTERROMPER_SEPARACAO -> {
            assertThat(observacao.outboxAntes())
                .as("interromper_separacao only after liberar_separacao")
                .contains(Efeito.LIBERAR_SEPARACAO);
            assertThat(antes).isEqualTo(Status.PAGO);
            assertThat(depois).isEqualTo(Status.CANCELADO);
          }
          case NOTIFICAR_REEMBOLSO -> assertThat(depois).isEqualTo(Status.REEMBOLSADO);
        }
      }
    }
    assertThat(aplicador.outbox().contains(Efeito.LIBERAR_SEPARACAO)).isEqualTo(observouPago);
    assertThat(aplicador.outbox().contains(Efeito.INTERROMPER_SEPARACAO))
        .isEqualTo(observouPagoParaCancelado);
    assertThat(aplicador.outbox().contains(Efeito.NOTIFICAR_REEMBOLSO))
        .isEqualTo(
            aplicador.observacoes().stream()
                .anyMatch(o -> o.aplicacao().estado().status() == Status.REEMBOLSADO));
  }

  @Property(tries = 1000)
  void oResultadoDeCadaFatoEORegistradoAoAplicar(@ForAll("historias") Historia historia) {
    AplicadorEmMemoria aplicador = entregar(historia.chegadas());
    for (AplicadorEmMemoria.Observacao observacao : aplicador.observacoes()) {
      Aplicacao aplicacao = observacao.aplicacao();
      assertThat(aplicacao.resultado())
          .isIn(Resultado.APLICADO, Resultado.EVENTO_ANTIGO, Resultado.REGRESSAO_DE_TERMINAL);
    }
    for (Evento evento : historia.eventos()) {
      if (evento.interpretacao() instanceof Interpretacao.SemFato semFato) {
        assertThat(aplicador.resultados()).containsEntry(evento.eventoId(), semFato.resultado());
      }
    }
  }

  private static AplicadorEmMemoria entregar(List<Evento> chegadas) {
    AplicadorEmMemoria aplicador = new AplicadorEmMemoria();
    for (Evento evento : chegadas) {
      aplicador.entregar(evento.interpretacao(), evento.eventoId());
    }
    return aplicador;
  }

  private static Map<String, Resultado> resultadosDosFatos(
      AplicadorEmMemoria aplicador, Historia historia) {
    Set<String> ids = new HashSet<>();
    historia.fatos().forEach(fato -> ids.add(fato.eventoId()));
    Map<String, Resultado> resultados = new HashMap<>(aplicador.resultados());
    resultados.keySet().retainAll(ids);
    return resultados;
  }

  /** Delivers {@code uma}'s events in the arrival pattern of {@code outra}, by position. */
  private static List<Evento> reordenar(Historia uma, Historia outra) {
    List<Evento> eventos = uma.eventos();
    List<Evento> chegadas = new java.util.ArrayList<>();
    for (Evento evento : outra.chegadas()) {
      chegadas.add(eventos.get(Math.floorMod(evento.eventoId().hashCode(), eventos.size())));
    }
    chegadas.addAll(eventos); // every event arrives at least once
    return chegadas;
  }
}
