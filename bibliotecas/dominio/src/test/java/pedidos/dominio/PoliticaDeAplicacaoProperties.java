package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import pedidos.dominio.Historias.Evento;
import pedidos.dominio.Historias.Historia;

/**
 * The production policy's own rules, over random histories: the modes, which rows count as facts of
 * the order, terminal statuses, and applying again.
 */
class PoliticaDeAplicacaoProperties {

  @Provide
  Arbitrary<Historia> historias() {
    return Historias.historias();
  }

  @Property(tries = 1000)
  void osModosSoDiferemEmReaplicarOQueJaFoiAplicado(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = new TabelasEmMemoria();
    for (Evento chegada : historia.chegadas()) {
      tabelas.guardar(chegada.eventoId(), chegada.interpretacao());
      List<EventoGravado> inbox = tabelas.inbox();
      EventoGravado evento = linha(inbox, chegada.eventoId());
      Escrita normal = decidir(tabelas, inbox, evento, ModoDeAplicacao.NORMAL);

      assertThat(decidir(tabelas, inbox, evento, ModoDeAplicacao.VARREDURA))
          .as("the sweep differs only in not waiting for a busy order")
          .isEqualTo(normal);
      if (evento.aplicado()) {
        assertThat(normal).isEqualTo(new Escrita.Nada());
        assertThat(decidir(tabelas, inbox, evento, ModoDeAplicacao.FORCADO))
            .isNotEqualTo(new Escrita.Nada());
      } else {
        assertThat(decidir(tabelas, inbox, evento, ModoDeAplicacao.FORCADO))
            .as("a pending event is applied the same way in every mode")
            .isEqualTo(normal);
      }
      tabelas.aplicar(chegada.eventoId(), ModoDeAplicacao.NORMAL);
    }
  }

  @Property(tries = 1000)
  void linhasPendentesNaoContamNaDobra(@ForAll("historias") Historia historia) {
    // The receptor stores every delivery before the applier gets to any: all the other rows are
    // pending while each is applied, and none of them may count.
    TabelasEmMemoria tabelas = new TabelasEmMemoria();
    historia.chegadas().forEach(e -> tabelas.guardar(e.eventoId(), e.interpretacao()));
    List<Fato> aplicados = new ArrayList<>();
    for (Evento chegada : historia.chegadas()) {
      tabelas.aplicar(chegada.eventoId(), ModoDeAplicacao.NORMAL);
      if (chegada.interpretacao() instanceof Fato fato && !aplicados.contains(fato)) {
        aplicados.add(fato);
      }
      Semente canonico = Semente.emOrdemDeVersao(aplicados);
      assertThat(tabelas.estado()).isEqualTo(canonico.estado());
      assertThat(tabelas.resultados()).containsAllEntriesOf(canonico.resultados());
      assertThat(tabelas.inbox())
          .filteredOn(linha -> !linha.aplicado())
          .allMatch(linha -> linha.resultado() == null, "pending rows carry no result");
    }
  }

  @Property(tries = 1000)
  void umaFalhaDeAplicacaoSoContaDepoisDoReplayForcado(
      @ForAll("historias") Historia historia, @ForAll long qual) {
    List<Fato> fatos = historia.fatos();
    if (fatos.isEmpty()) {
      return;
    }
    Fato falhou = fatos.get(Math.floorMod(qual, fatos.size()));
    TabelasEmMemoria tabelas = new TabelasEmMemoria();
    tabelas.guardar(falhou.eventoId(), falhou);
    tabelas.falhar(falhou.eventoId());
    for (Evento chegada : historia.chegadas()) {
      tabelas.entregar(chegada.eventoId(), chegada.interpretacao());
    }
    List<Fato> semOQueFalhou = new ArrayList<>(fatos);
    semOQueFalhou.remove(falhou);
    assertThat(tabelas.estado()).isEqualTo(Semente.emOrdemDeVersao(semOQueFalhou).estado());
    assertThat(tabelas.resultados()).containsEntry(falhou.eventoId(), Resultado.FALHA_DE_APLICACAO);

    tabelas.aplicar(falhou.eventoId(), ModoDeAplicacao.FORCADO);

    Semente canonico = Semente.emOrdemDeVersao(fatos);
    assertThat(tabelas.estado()).isEqualTo(canonico.estado());
    assertThat(tabelas.resultados()).containsAllEntriesOf(canonico.resultados());
  }

  @Property(tries = 2000)
  void umStatusTerminalNuncaRegride(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = entregar(historia);
    List<Status> armazenados = new ArrayList<>();
    tabelas.observacoes().stream()
        .filter(o -> o.escrita() instanceof Escrita.Gravar)
        .forEach(o -> armazenados.add(((Escrita.Gravar) o.escrita()).estado().status()));
    for (int i = 1; i < armazenados.size(); i++) {
      Status antes = armazenados.get(i - 1);
      Status depois = armazenados.get(i);
      // The seed's TERMINAIS, written out: cancelado leaves only for reembolsado, reembolsado
      // never.
      if (antes == Status.CANCELADO) {
        assertThat(depois).isIn(Status.CANCELADO, Status.REEMBOLSADO);
      } else if (antes == Status.REEMBOLSADO) {
        assertThat(depois).isEqualTo(Status.REEMBOLSADO);
      }
    }
  }

  @Property(tries = 1000)
  void entregarDeNovoNaoEscreveNada(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = entregar(historia);
    EstadoDoPedido estado = tabelas.estado();
    List<Efeito> outbox = tabelas.outbox();
    var resultados = tabelas.resultados();

    for (Evento evento : historia.eventos()) {
      assertThat(tabelas.aplicar(evento.eventoId(), ModoDeAplicacao.NORMAL))
          .isEqualTo(new Escrita.Nada());
    }
    assertThat(tabelas.estado()).isEqualTo(estado);
    assertThat(tabelas.outbox()).isEqualTo(outbox);
    assertThat(tabelas.resultados()).isEqualTo(resultados);
  }

  @Property(tries = 1000)
  void soSeCorrigeOResultadoQueMudou(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = new TabelasEmMemoria();
    Set<String> vistos = new HashSet<>();
    for (Evento chegada : historia.chegadas()) {
      var antes = tabelas.resultados();
      Escrita escrita = decidirAposGuardar(tabelas, chegada);
      if (escrita instanceof Escrita.Gravar gravar) {
        assertThat(gravar.correcoes().keySet())
            .doesNotContain(gravar.eventoId())
            .allMatch(vistos::contains, "facts applied before")
            .allMatch(id -> antes.get(id) != gravar.correcoes().get(id), "changed results only");
      }
      vistos.add(chegada.eventoId());
    }
  }

  private static Escrita decidirAposGuardar(TabelasEmMemoria tabelas, Evento chegada) {
    tabelas.guardar(chegada.eventoId(), chegada.interpretacao());
    return tabelas.aplicar(chegada.eventoId(), ModoDeAplicacao.NORMAL);
  }

  private static Escrita decidir(
      TabelasEmMemoria tabelas,
      List<EventoGravado> inbox,
      EventoGravado evento,
      ModoDeAplicacao modo) {
    return PoliticaDeAplicacao.decidir(tabelas.estado(), inbox, evento, modo);
  }

  private static EventoGravado linha(List<EventoGravado> inbox, String eventoId) {
    return inbox.stream().filter(l -> l.eventoId().equals(eventoId)).findFirst().orElseThrow();
  }

  private static TabelasEmMemoria entregar(Historia historia) {
    TabelasEmMemoria tabelas = new TabelasEmMemoria();
    historia.chegadas().forEach(e -> tabelas.entregar(e.eventoId(), e.interpretacao()));
    return tabelas;
  }
}
