package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import pedidos.contrato.EnvelopeDeEntrada.Medidor;
import pedidos.contrato.EnvelopeDeEntrada.Violacao;

class EnvelopeDeEntradaTest {

  @Test
  void numerosComoOPostgresOsEscreve() {
    // Each pair: what was sent, what PostgreSQL 15-18 print for it as jsonb.
    String[][] casos = {
      {"1e3", "1000"},
      {"1.50e1", "15.0"},
      {"0e-5", "0.00000"},
      {"-0.0", "0.0"},
      {"1E+2", "100"},
      {"1e-5", "0.00001"},
      {"0e5", "0"},
      {"-12.340", "-12.340"},
    };
    for (String[] caso : casos) {
      assertThat(EnvelopeDeEntrada.caracteresNoJsonb(new BigDecimal(caso[0])))
          .as(caso[0])
          .isEqualTo(caso[1].length());
    }
  }

  @Test
  void medeOTextoDoJsonbDeUmCorpo() {
    // {"a": [1, "x", {}], "b": null} as jsonb prints it.
    Medidor medidor = new Medidor();
    assertThat(medidor.abrir(true)).isNull();
    medidor.nome("a");
    medidor.abrir(false);
    medidor.numero("1");
    medidor.texto("x");
    medidor.abrir(true);
    medidor.fechar();
    medidor.fechar();
    medidor.nome("b");
    medidor.literal("null");
    medidor.fechar();
    assertThat(medidor.bytesNoJsonb()).isEqualTo("{\"a\": [1, \"x\", {}], \"b\": null}".length());
  }

  @Test
  void textosComEscapesECaracteresMultibyte() {
    assertThat(EnvelopeDeEntrada.bytesDeTexto("a\"\\\n\u0001é😀"))
        .isEqualTo(2 + 1 + 2 + 2 + 2 + 6 + 2 + 4);
  }

  @Test
  void recusaOQueOJsonbExpandiria() {
    assertThat(new Medidor().numero("1e401"))
        .extracting(Violacao::motivo)
        .isEqualTo("numero_fora_da_escala");
    assertThat(new Medidor().numero("1e-401"))
        .extracting(Violacao::motivo)
        .isEqualTo("numero_fora_da_escala");
    assertThat(new Medidor().numero("1e400")).isNull();
    assertThat(new Medidor().numero("1".repeat(101)))
        .extracting(Violacao::motivo)
        .isEqualTo("numero_longo_demais");
    Medidor muitos = new Medidor();
    muitos.abrir(false);
    Violacao violacao = null;
    for (int i = 0; i < EnvelopeDeEntrada.BYTES_NO_JSONB && violacao == null; i++) {
      violacao = muitos.numero("1e400");
    }
    assertThat(violacao).extracting(Violacao::motivo).isEqualTo("grande_demais_no_banco");
  }

  @Test
  void recusaAninhamentoAlemDoLimite() {
    Medidor medidor = new Medidor();
    for (int i = 0; i < EnvelopeDeEntrada.PROFUNDIDADE; i++) {
      assertThat(medidor.abrir(false)).isNull();
    }
    assertThat(medidor.abrir(true))
        .extracting(Violacao::motivo)
        .isEqualTo("profundidade_excessiva");
  }

  @Test
  void osLeitoresAceitamOQueOEnvelopeDeixaPassar() {
    assertThat(EnvelopeDeEntrada.BYTES_DA_MENSAGEM).isGreaterThan(EnvelopeDeEntrada.BYTES_NO_JSONB);
    assertThat(EnvelopeDeEntrada.BYTES_NO_JSONB)
        .isGreaterThanOrEqualTo(EnvelopeDeEntrada.BYTES_DO_CORPO);
    // Jackson's default number length (1,000) is above the longest number jsonb writes back.
    assertThat(EnvelopeDeEntrada.CARACTERES_DE_NUMERO_NO_JSONB).isLessThan(1_000);
  }
}
