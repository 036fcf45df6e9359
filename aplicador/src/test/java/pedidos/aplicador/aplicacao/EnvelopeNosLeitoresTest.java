package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEvento;
import pedidos.contrato.RegistroIlegivelException;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.Resultado;

/**
 * The applier's readers take whatever the input envelope lets in, and refuse what is outside it as
 * a named outcome: a dead-letter reason for a record, {@code fato_invalido} for a stored payload.
 */
class EnvelopeNosLeitoresTest {

  private final LeitorDeEventos eventos = new LeitorDeEventos();

  @Test
  void registroNoLimiteDoEnvelopeELido() {
    // The body's own object is level 1: the payload holds PROFUNDIDADE levels, the record one more.
    String payload =
        corpo(
            EnvelopeDeEntrada.PROFUNDIDADE,
            "9".repeat(EnvelopeDeEntrada.CARACTERES_DE_NUMERO_NO_JSONB),
            "n".repeat(EnvelopeDeEntrada.CARACTERES_DE_NOME),
            "x".repeat(EnvelopeDeEntrada.BYTES_NO_JSONB - 20_000));

    RegistroDeEvento lido = FormatoDosRegistros.lerEvento(registro(payload));

    assertThat(lido.eventoId()).isEqualTo("e1");
    assertThat(lido.payload().length()).isGreaterThan(EnvelopeDeEntrada.BYTES_DO_CORPO);
    assertThat(eventos.interpretar("e1", "order.paid", payload))
        .as("the stored payload reads as a fact")
        .isInstanceOf(pedidos.dominio.Fato.class);
  }

  @Test
  void registroForaDoEnvelopeVaiParaODescarteComOLimiteNomeado() {
    String fundo = corpo(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES + 5, "1", "n", "x");
    String numero =
        corpo(2, "9".repeat(EnvelopeDeEntrada.CARACTERES_DE_NUMERO_NO_JSONB + 1), "n", "x");
    String nome = corpo(2, "1", "n".repeat(EnvelopeDeEntrada.CARACTERES_DE_NOME + 1), "x");

    for (String payload : new String[] {fundo, numero, nome}) {
      assertThatThrownBy(() -> FormatoDosRegistros.lerEvento(registro(payload)))
          .isInstanceOf(RegistroIlegivelException.class)
          .hasMessageStartingWith("registro fora do envelope: ");
      Interpretacao interpretacao = eventos.interpretar("e1", "order.paid", payload);
      assertThat(interpretacao).isInstanceOf(Interpretacao.SemFato.class);
      var semFato = (Interpretacao.SemFato) interpretacao;
      assertThat(semFato.resultado()).isEqualTo(Resultado.FATO_INVALIDO);
      assertThat(semFato.motivo()).startsWith("payload fora do envelope: ");
    }
  }

  @Test
  void registroMaiorQueAMensagemDoEnvelopeERecusado() {
    String payload = corpo(2, "1", "n", "x".repeat(EnvelopeDeEntrada.BYTES_DA_MENSAGEM));
    assertThatThrownBy(() -> FormatoDosRegistros.lerEvento(registro(payload)))
        .isInstanceOf(RegistroIlegivelException.class)
        .hasMessageStartingWith("registro fora do envelope: ");
  }

  /**
   * A webhook body nested {@code niveis} deep (its own object is level 1), with a number, a key and
   * a string of the given sizes.
   */
  private static String corpo(int niveis, String numero, String nome, String texto) {
    var aninhado = new StringBuilder();
    for (int i = 2; i <= niveis; i++) {
      aninhado.append("[");
    }
    aninhado.append("1");
    for (int i = 2; i <= niveis; i++) {
      aninhado.append("]");
    }
    return """
        {"id": "e1", "type": "order.paid", "sequence": 2, "occurred_at": "2026-11-30T10:00:00Z",
         "data": {"id": "ord1", "total_cents": 1990}, "extra": %s, "numero": %s, "%s": 1,
         "texto": "%s"}
        """
        .formatted(niveis > 1 ? aninhado : "1", numero, nome, texto);
  }

  private static String registro(String payload) {
    return """
        {"evento_id": "e1", "recurso_id": "ord1", "tipo": "order.paid", "payload": %s}
        """
        .formatted(payload);
  }
}
