package pedidos.receptor.evento;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.receptor.Entregas;
import pedidos.receptor.PropriedadesDeTeste;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.evento.LeitorDeEvento.ForaDoEnvelope;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;

/**
 * The event reader refuses what is outside the input envelope, at its edges, with the envelope's
 * reason; the issue's bodies among them. The parser carries the same limits and stops by itself.
 */
class EnvelopeNoLeitorTest {

  private static final LeitorDeEvento LEITOR =
      new LeitorDeEvento(
          PropriedadesDeTeste.propriedades(PropriedadesDeTeste.SO_LOJA, Entregas.SEGREDO));

  private static final int PROFUNDIDADE = EnvelopeDeEntrada.PROFUNDIDADE;

  @Test
  void oNumeroDoIssueERecusadoAntesDoBanco() {
    assertThat(motivo(evento("\"x\": 1e1000"))).isEqualTo("numero_fora_da_escala");
    assertThat(motivo(evento("\"x\": 1e1000000"))).isEqualTo("numero_fora_da_escala");
    assertThat(motivo(evento("\"x\": 1e-401"))).isEqualTo("numero_fora_da_escala");
    assertThat(motivo(evento("\"x\": 1e400"))).isNull();
    assertThat(motivo(evento("\"x\": -1.5e-399"))).isNull();
  }

  @Test
  void muitosNumerosQueOJsonbExpandeSaoRecusadosPeloTamanhoNoBanco() {
    // 6 bytes each here, 401 digits each in jsonb: about 70 MB of jsonb text from 1 MiB.
    String muitos = "1e400, ".repeat(170_000);
    String json = evento("\"x\": [" + muitos + "1]");
    assertThat(json.length()).isLessThan(EnvelopeDeEntrada.BYTES_DO_CORPO * 2);

    assertThat(motivo(json)).isEqualTo("grande_demais_no_banco");
    // 5,000 of them stay under BYTES_NO_JSONB.
    assertThat(motivo(evento("\"x\": [" + "1e400, ".repeat(5_000) + "1]"))).isNull();
  }

  @Test
  void profundidadeNoLimiteEAceitaUmNivelAMaisNao() {
    // The body is level 1 and "data" level 2; "x" adds the rest.
    assertThat(motivo(evento("\"x\": " + aninhado(PROFUNDIDADE - 2)))).isNull();
    assertThat(motivo(evento("\"x\": " + aninhado(PROFUNDIDADE - 1))))
        .isEqualTo("profundidade_excessiva");
    assertThat(motivo(evento("\"x\": " + aninhado(100_000)))).isEqualTo("profundidade_excessiva");
  }

  @ParameterizedTest
  @ValueSource(ints = {EnvelopeDeEntrada.CARACTERES_DE_NUMERO + 1, 1_001, 100_000})
  void numeroLongoDemais(int digitos) {
    assertThat(motivo(evento("\"x\": " + "7".repeat(digitos)))).isEqualTo("numero_longo_demais");
    assertThat(motivo(evento("\"x\": 0." + "7".repeat(digitos)))).isEqualTo("numero_longo_demais");
    assertThat(motivo(evento("\"x\": -" + "7".repeat(digitos)))).isEqualTo("numero_longo_demais");
  }

  @Test
  void numeroNoLimiteEAceito() {
    int n = EnvelopeDeEntrada.CARACTERES_DE_NUMERO;
    assertThat(motivo(evento("\"x\": " + "7".repeat(n)))).isNull();
    assertThat(motivo(evento("\"x\": -" + "7".repeat(n - 1)))).isNull();
    assertThat(motivo(evento("\"x\": -" + "7".repeat(n)))).isEqualTo("numero_longo_demais");
  }

  @Test
  void nomeNoLimiteEAceitoUmCaractereAMaisNao() {
    int n = EnvelopeDeEntrada.CARACTERES_DE_NOME;
    assertThat(motivo(evento("\"" + "k".repeat(n) + "\": 1"))).isNull();
    assertThat(motivo(evento("\"" + "😀".repeat(n / 2) + "\": 1"))).isNull();
    assertThat(motivo(evento("\"" + "k".repeat(n + 1) + "\": 1"))).isEqualTo("nome_longo_demais");
    assertThat(motivo(evento("\"" + "k".repeat(500_000) + "\": 1"))).isEqualTo("nome_longo_demais");
  }

  @Test
  void aRecusaGuardaOIdDoEventoParaAQuarentena() {
    Recusa recusa =
        catchThrowableOfType(
            Recusa.class,
            () -> LEITOR.ler(bytes("{\"id\": \"evt_9\", \"x\": " + aninhado(1_000) + "}")));

    assertThat(recusa.motivo()).isEqualTo("profundidade_excessiva");
    assertThat(recusa.eventoId()).isEqualTo("evt_9");
  }

  @Test
  void oParserDoLeitorParaSozinhoNosLimitesDoEnvelope() {
    // Not through the measurer: the parser itself stops, with the envelope's reason.
    assertThat(violacaoDoParser(aninhado(PROFUNDIDADE + 1))).isEqualTo("profundidade_excessiva");
    assertThat(violacaoDoParser("[" + "1".repeat(5_000) + "]")).isEqualTo("numero_longo_demais");
    assertThat(violacaoDoParser("[1." + "1".repeat(5_000) + "]")).isEqualTo("numero_longo_demais");
    assertThat(violacaoDoParser("{\"" + "k".repeat(5_000) + "\": 1}"))
        .isEqualTo("nome_longo_demais");
    assertThat(violacaoDoParser(aninhado(PROFUNDIDADE))).isNull();
  }

  private static String violacaoDoParser(String json) {
    try (JsonParser parser = LeitorDeEvento.JSON.createParser(ObjectReadContext.empty(), json)) {
      while (parser.nextToken() != null) {
        // Reads every token; a number's text is what the receptor reads too.
        if (parser.currentToken().isNumeric()) {
          parser.getString();
        }
      }
      return null;
    } catch (ForaDoEnvelope e) {
      return e.violacao().motivo();
    }
  }

  /** {@code n} levels of arrays, innermost empty. */
  static String aninhado(int n) {
    return "[".repeat(n) + "]".repeat(n);
  }

  static String evento(String extraNoData) {
    return "{\"id\": \"evt_1\", \"type\": \"order.paid\", \"data\": {\"id\": \"ord_1\", "
        + extraNoData
        + "}}";
  }

  /** The reader's refusal reason, or null when it accepts the body. */
  static String motivo(String json) {
    try {
      LEITOR.ler(bytes(json));
      return null;
    } catch (Recusa e) {
      return e.motivo();
    }
  }

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
