package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import pedidos.dominio.ExplicacaoDaDobra.PassoExplicado;
import pedidos.dominio.Historias.Evento;
import pedidos.dominio.Historias.Historia;

/**
 * The explained fold is the fold: over random histories delivered through the production policy,
 * the explanation's final state is the stored state and the canonical one, and each step's verdict
 * is the verdict the inbox stores.
 */
class ExplicacaoDaDobraProperties {

  @Provide
  Arbitrary<Historia> historias() {
    return Historias.historias();
  }

  @Property(tries = 2000)
  void oEstadoExplicadoEODaDobraCanonica(@ForAll("historias") Historia historia) {
    ExplicacaoDaDobra explicacao = ExplicacaoDaDobra.explicarFatos(fatosDasChegadas(historia));
    DobraCanonica dobra = DobraCanonica.dobrar(historia.fatos());

    assertThat(explicacao.estado()).isEqualTo(dobra.estado());
    assertThat(veredictos(explicacao)).isEqualTo(dobra.veredictos());
  }

  @Property(tries = 2000)
  void explicarOQueOAplicadorGravouDaOEstadoGravado(@ForAll("historias") Historia historia) {
    TabelasEmMemoria tabelas = new TabelasEmMemoria();
    for (Evento evento : historia.chegadas()) {
      tabelas.entregar(evento.eventoId(), evento.interpretacao());
    }

    ExplicacaoDaDobra explicacao = ExplicacaoDaDobra.explicar(tabelas.inbox());

    assertThat(explicacao.estado()).isEqualTo(tabelas.estado());
    assertThat(explicacao.confereCom(tabelas.estado())).isTrue();
    Map<String, Resultado> gravados = new HashMap<>(tabelas.resultados());
    gravados.keySet().retainAll(veredictos(explicacao).keySet());
    assertThat(veredictos(explicacao)).isEqualTo(gravados);
    // every event is either a step or left out with a reason, never lost
    assertThat(explicacao.passos().size() + explicacao.foraDaDobra().size())
        .isEqualTo(tabelas.inbox().size());
    explicacao.passos().forEach(passo -> assertThat(passo.porque()).isNotBlank());
    explicacao.foraDaDobra().forEach(fora -> assertThat(fora.porque()).isNotBlank());
  }

  @Property(tries = 1000)
  void cadaPassoParteDoEstadoDoAnterior(@ForAll("historias") Historia historia) {
    ExplicacaoDaDobra explicacao = ExplicacaoDaDobra.explicarFatos(fatosDasChegadas(historia));
    EstadoDoPedido anterior = null;
    for (PassoExplicado passo : explicacao.passos()) {
      assertThat(passo.antes()).isEqualTo(anterior);
      if (passo.repetido() || passo.resultado() != Resultado.APLICADO) {
        assertThat(passo.efeitos()).isEmpty();
        assertThat(passo.depois().status()).isEqualTo(anterior.status());
      }
      anterior = passo.depois();
    }
  }

  private static java.util.List<Fato> fatosDasChegadas(Historia historia) {
    java.util.List<Fato> fatos = new java.util.ArrayList<>();
    for (Evento evento : historia.chegadas()) {
      if (evento.interpretacao() instanceof Fato fato) {
        fatos.add(fato);
      }
    }
    return fatos;
  }

  private static Map<String, Resultado> veredictos(ExplicacaoDaDobra explicacao) {
    Map<String, Resultado> veredictos = new HashMap<>();
    for (PassoExplicado passo : explicacao.passos()) {
      if (!passo.repetido()) {
        veredictos.put(passo.fato().eventoId(), passo.resultado());
      }
    }
    return veredictos;
  }
}
