package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import pedidos.contrato.AssinaturaDeRegistro.Veredicto;

class AssinaturaDeRegistroTest {

  private static final String CHAVE = "chave-de-teste-com-mais-de-32-bytes-0001";
  private static final String NOVA = "chave-nova-de-teste-com-mais-de-32-bytes";
  private final AssinaturaDeRegistro assinatura = AssinaturaDeRegistro.de(List.of(CHAVE));

  @Test
  void registroAssinadoPeloPublicadorEValido() {
    String cabecalho = assinatura.assinar("loja.eventos", b("ord_1"), b("{\"a\":1}"));

    assertThat(cabecalho).startsWith("v1,");
    assertThat(assinatura.verificar("loja.eventos", b("ord_1"), b("{\"a\":1}"), b(cabecalho)))
        .isEqualTo(Veredicto.VALIDA);
  }

  /**
   * Known answers, computed outside Java (Python's hmac over the length-prefixed fields): the
   * signature of records already in Kafka, and of whatever the picking system implements, must not
   * change with a refactoring.
   */
  @Test
  void vetoresConhecidos() {
    assertThat(assinatura.assinar(TopicosDoKafka.EVENTOS, b("ord_1"), b("{\"a\":1}")))
        .isEqualTo("v1,mPYzSuykAK7026LpU7Cj9kfsfGIU20xberiB2h4TIh4=");
    assertThat(assinatura.assinar(TopicosDoKafka.EFEITOS, null, b("v")))
        .as("a null key is length -1 and no bytes")
        .isEqualTo("v1,9XvUlHcGJPUMolGBjF7X8Of5e3wGD57PVIokbx85ny4=");
  }

  @Test
  void semCabecalhoMalformadoOuComOutraChaveERecusado() {
    String cabecalho = assinatura.assinar("loja.eventos", b("ord_1"), b("v"));
    String deOutraChave =
        AssinaturaDeRegistro.de(List.of(NOVA)).assinar("loja.eventos", b("ord_1"), b("v"));

    assertThat(assinatura.verificar("loja.eventos", b("ord_1"), b("v"), null))
        .isEqualTo(Veredicto.AUSENTE);
    assertThat(assinatura.verificar("loja.eventos", b("ord_1"), b("v"), b("v1,%%%")))
        .isEqualTo(Veredicto.MALFORMADA);
    assertThat(assinatura.verificar("loja.eventos", b("ord_1"), b("v"), b(cabecalho.substring(3))))
        .isEqualTo(Veredicto.MALFORMADA);
    assertThat(assinatura.verificar("loja.eventos", b("ord_1"), b("v"), b(deOutraChave)))
        .isEqualTo(Veredicto.INVALIDA);
  }

  @Test
  void registroMovidoParaOutroTopicoOuComOutroValorERecusado() {
    String cabecalho = assinatura.assinar("separacao.efeitos", b("ord_1"), b("v"));

    assertThat(assinatura.verificar("loja.eventos", b("ord_1"), b("v"), b(cabecalho)))
        .isEqualTo(Veredicto.INVALIDA);
    assertThat(assinatura.verificar("separacao.efeitos", b("ord_2"), b("v"), b(cabecalho)))
        .isEqualTo(Veredicto.INVALIDA);
    assertThat(assinatura.verificar("separacao.efeitos", b("ord_1"), b("w"), b(cabecalho)))
        .isEqualTo(Veredicto.INVALIDA);
    assertThat(assinatura.verificar("separacao.efeitos", b("ord_1"), null, b(cabecalho)))
        .isEqualTo(Veredicto.INVALIDA);
  }

  @Test
  void rotacaoAPrimeiraChaveAssinaEQualquerUmaVerifica() {
    var antiga = AssinaturaDeRegistro.de(List.of(CHAVE));
    var emRotacao = AssinaturaDeRegistro.de(List.of(NOVA, CHAVE));
    var nova = AssinaturaDeRegistro.de(List.of(NOVA));

    String daAntiga = antiga.assinar("t", b("k"), b("v"));
    String daRotacao = emRotacao.assinar("t", b("k"), b("v"));

    assertThat(emRotacao.verificar("t", b("k"), b("v"), b(daAntiga))).isEqualTo(Veredicto.VALIDA);
    assertThat(nova.verificar("t", b("k"), b("v"), b(daRotacao))).isEqualTo(Veredicto.VALIDA);
    assertThat(antiga.verificar("t", b("k"), b("v"), b(daRotacao))).isEqualTo(Veredicto.INVALIDA);
  }

  @Test
  void chaveCurtaOuAusenteERecusadaComAVariavelNaMensagem() {
    assertThatThrownBy(() -> AssinaturaDeRegistro.de(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(AssinaturaDeRegistro.VARIAVEL);
    assertThatThrownBy(() -> AssinaturaDeRegistro.de(List.of(CHAVE, "x".repeat(31))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key number 2 has 31 bytes")
        .hasMessageContaining(AssinaturaDeRegistro.VARIAVEL);
    assertThatThrownBy(() -> AssinaturaDeRegistro.de(List.of(" ")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void variasChavesDeAoMenos32BytesSaoAceitasSemSeremMostradas() {
    var duas = AssinaturaDeRegistro.de(List.of("k".repeat(32), "n".repeat(64)));

    assertThat(duas.toString()).contains("2 key(s)").doesNotContain("kkkk").doesNotContain("nnnn");
    assertThat(duas.verificar("t", b("k"), b("v"), b(duas.assinar("t", b("k"), b("v")))))
        .isEqualTo(Veredicto.VALIDA);
  }

  /**
   * The lengths make the encoding unambiguous: moving bytes from the key to the value (or the topic
   * to the key) changes the signature, even though the concatenation is the same.
   */
  @Property
  void bytesDeslocadosEntreCamposMudamAAssinatura(
      @ForAll String topico, @ForAll String chave, @ForAll String valor) {
    String junto = chave + valor;
    for (int corte = 0; corte <= junto.length(); corte++) {
      String outraChave = junto.substring(0, corte);
      String outroValor = junto.substring(corte);
      if (outraChave.equals(chave)) {
        continue;
      }
      String cabecalho = assinatura.assinar(topico, b(chave), b(valor));
      assertThat(assinatura.verificar(topico, b(outraChave), b(outroValor), b(cabecalho)))
          .isEqualTo(Veredicto.INVALIDA);
    }
  }

  private static byte[] b(String texto) {
    return texto.getBytes(StandardCharsets.UTF_8);
  }
}
