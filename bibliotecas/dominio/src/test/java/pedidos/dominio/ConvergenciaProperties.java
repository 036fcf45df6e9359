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

/**
 * Thousands of random histories through the production policy ({@link PoliticaDeAplicacao}, over
 * {@link TabelasEmMemoria}): state converges, re-applying is idempotent, effects behave.
 */
class ConvergenciaProperties {

  @Provide
  Arbitrary<Historia> historias() {
    return Historias.historias();
  }

  @Property(tries = 3000)
  void oEstadoAplicadoEOCanonico(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = entregar(historia.chegadas());
    Semente canonico = Semente.emOrdemDeVersao(historia.fatos());

    assertThat(tabelas.estado()).isEqualTo(canonico.estado());
    assertThat(resultadosDosFatos(tabelas, historia)).isEqualTo(canonico.resultados());
  }

  @Property(tries = 2000)
  void aOrdemDeChegadaEAsDuplicatasNaoImportam(
      @ForAll("historias") Historia uma, @ForAll("historias") Historia outraOrdem) {
    // the same events, in another arrival order with other duplicates
    Historia mesmaHistoria = new Historia(uma.eventos(), reordenar(uma, outraOrdem));
    TabelasEmMemoria primeiro = entregar(uma.chegadas());
    TabelasEmMemoria segundo = entregar(mesmaHistoria.chegadas());

    assertThat(segundo.estado()).isEqualTo(primeiro.estado());
    assertThat(segundo.resultados()).isEqualTo(primeiro.resultados());
  }

  @Property(tries = 2000)
  void duplicatasNaoMudamNada(@ForAll("historias") Historia historia) {
    TabelasEmMemoria comDuplicatas = entregar(historia.chegadas());
    TabelasEmMemoria semDuplicatas = entregar(historia.semDuplicatas());

    assertThat(comDuplicatas.estado()).isEqualTo(semDuplicatas.estado());
    assertThat(comDuplicatas.outbox()).isEqualTo(semDuplicatas.outbox());
    assertThat(comDuplicatas.resultados()).isEqualTo(semDuplicatas.resultados());
  }

  @Property(tries = 2000)
  void aplicarDuasVezesEAplicarUma(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = entregar(historia.chegadas());
    EstadoDoPedido estado = tabelas.estado();
    List<Efeito> outbox = tabelas.outbox();
    Map<String, Resultado> resultados = new HashMap<>(tabelas.resultados());

    for (Evento evento : historia.eventos()) {
      Escrita escrita = tabelas.aplicar(evento.eventoId(), ModoDeAplicacao.FORCADO);
      if (escrita instanceof Escrita.Gravar gravar) {
        assertThat(gravar.efeitos()).isEmpty();
        assertThat(gravar.correcoes()).isEmpty();
        assertThat(gravar.resultado()).isEqualTo(resultados.get(evento.eventoId()));
      }
      assertThat(tabelas.estado()).isEqualTo(estado);
    }
    assertThat(tabelas.outbox()).isEqualTo(outbox);
    assertThat(tabelas.resultados()).isEqualTo(resultados);
  }

  @Property(tries = 3000)
  void efeitosSaemSoDeTransicoesReais(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = entregar(historia.chegadas());
    boolean observouPago = false;
    boolean observouPagoParaCancelado = false;

    for (TabelasEmMemoria.Observacao observacao : tabelas.observacoes()) {
      if (!(observacao.escrita() instanceof Escrita.Gravar gravar)) {
        continue;
      }
      Status antes = observacao.antes() == null ? null : observacao.antes().status();
      Status depois = gravar.estado().status();
      observouPago |= depois == Status.PAGO;
      observouPagoParaCancelado |= antes == Status.PAGO && depois == Status.CANCELADO;
      assertThat(gravar.efeitos()).doesNotHaveDuplicates();
      for (Efeito efeito : gravar.efeitos()) {
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
    assertThat(tabelas.outbox().contains(Efeito.LIBERAR_SEPARACAO)).isEqualTo(observouPago);
    assertThat(tabelas.outbox().contains(Efeito.INTERROMPER_SEPARACAO))
        .isEqualTo(observouPagoParaCancelado);
    assertThat(tabelas.outbox().contains(Efeito.NOTIFICAR_REEMBOLSO))
        .isEqualTo(
            tabelas.observacoes().stream()
                .anyMatch(
                    o ->
                        o.escrita() instanceof Escrita.Gravar gravar
                            && gravar.estado().status() == Status.REEMBOLSADO));
  }

  @Property(tries = 1000)
  void oResultadoDeCadaFatoEORegistradoAoAplicar(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = entregar(historia.chegadas());
    for (TabelasEmMemoria.Observacao observacao : tabelas.observacoes()) {
      if (observacao.escrita() instanceof Escrita.Gravar gravar) {
        assertThat(gravar.resultado())
            .isIn(Resultado.APLICADO, Resultado.EVENTO_ANTIGO, Resultado.REGRESSAO_DE_TERMINAL);
      }
    }
    for (Evento evento : historia.eventos()) {
      if (evento.interpretacao() instanceof Interpretacao.SemFato semFato) {
        assertThat(tabelas.resultados()).containsEntry(evento.eventoId(), semFato.resultado());
      }
    }
  }

  private static TabelasEmMemoria entregar(List<Evento> chegadas) {
    TabelasEmMemoria tabelas = new TabelasEmMemoria();
    for (Evento evento : chegadas) {
      tabelas.entregar(evento.eventoId(), evento.interpretacao());
    }
    return tabelas;
  }

  private static Map<String, Resultado> resultadosDosFatos(
      TabelasEmMemoria tabelas, Historia historia) {
    Set<String> ids = new HashSet<>();
    historia.fatos().forEach(fato -> ids.add(fato.eventoId()));
    Map<String, Resultado> resultados = new HashMap<>(tabelas.resultados());
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
