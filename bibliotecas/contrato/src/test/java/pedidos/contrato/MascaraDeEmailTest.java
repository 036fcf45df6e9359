package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MascaraDeEmailTest {

  @Test
  void mostraSoAPrimeiraLetraEODominio() {
    assertThat(MascaraDeEmail.mascarar("alice@example.com")).isEqualTo("a***@example.com");
    assertThat(MascaraDeEmail.mascarar("a@b.c")).isEqualTo("a***@b.c");
    assertThat(MascaraDeEmail.mascarar("  bob.smith+tag@mail.example.org "))
        .isEqualTo("b***@mail.example.org");
  }

  @Test
  void entradasEstranhas() {
    assertThat(MascaraDeEmail.mascarar(null)).isNull();
    assertThat(MascaraDeEmail.mascarar("")).isEqualTo("***");
    assertThat(MascaraDeEmail.mascarar("   ")).isEqualTo("***");
    assertThat(MascaraDeEmail.mascarar("sem-arroba")).isEqualTo("***");
    assertThat(MascaraDeEmail.mascarar("@example.com")).isEqualTo("***@example.com");
    assertThat(MascaraDeEmail.mascarar("alice@")).isEqualTo("a***@");
    assertThat(MascaraDeEmail.mascarar("@")).isEqualTo("***@");
    // Quoted local parts may hold an @: only the domain after the last one is shown.
    assertThat(MascaraDeEmail.mascarar("\"a@b\"@example.com")).isEqualTo("\"***@example.com");
    // A character outside the BMP is not cut in half.
    assertThat(MascaraDeEmail.mascarar("\uD83D\uDE00smile@example.com"))
        .isEqualTo("\uD83D\uDE00***@example.com");
  }

  @Test
  void nenhumaLetraDoEnderecoAlemDaPrimeiraSobra() {
    String mascarado = MascaraDeEmail.mascarar("zyxwvut@example.com");

    assertThat(mascarado).doesNotContain("yxwvut").startsWith("z***");
  }

  @Test
  void mascaraTodosOsEnderecosDeUmTexto() {
    String texto =
        "customer_email invalido: {\"a\":\"alice@example.com\",\"b\":[\"bob@x.org\"]}"
            + " Unrecognized token 'carol@y.net': was expecting; row (ord-1, dave@z.io)";

    assertThat(MascaraDeEmail.mascararNoTexto(texto))
        .isEqualTo(
            "customer_email invalido: {\"a\":\"a***@example.com\",\"b\":[\"b***@x.org\"]}"
                + " Unrecognized token 'c***@y.net': was expecting; row (ord-1, d***@z.io)");
  }

  @Test
  void textoSemEnderecoFicaIgual() {
    assertThat(MascaraDeEmail.mascararNoTexto(null)).isNull();
    assertThat(MascaraDeEmail.mascararNoTexto("")).isEmpty();
    assertThat(MascaraDeEmail.mascararNoTexto("instante invalido: 2026-13-01"))
        .isEqualTo("instante invalido: 2026-13-01");
    // Replacement text is literal: a $ in the domain does not break the regex replacement.
    assertThat(MascaraDeEmail.mascararNoTexto("x$1@a$b.c")).isEqualTo("x***@a$b.c");
  }

  @Test
  void textoLongoCustaUmaPassada() {
    // A megabyte-long word with an @ only at its end: a pattern that retried from every position
    // would take minutes here (quadratic); one pass takes milliseconds.
    String palavra = "x".repeat(1_000_000);
    String texto = "payload " + palavra + " and " + palavra + "@example.com end";

    String mascarado =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5), () -> MascaraDeEmail.mascararNoTexto(texto));

    assertThat(mascarado).endsWith(" and x***@example.com end").startsWith("payload xxx");
  }

  @Test
  void excecaoMascaradaGuardaClassesEPilhaSemOEndereco() {
    IllegalStateException causa = new IllegalStateException("row (ord-1, alice@example.com)");
    RuntimeException falha = new RuntimeException("could not send bob@x.org", causa);
    falha.addSuppressed(new IllegalArgumentException("carol@y.net"));

    Throwable copia = MascaraDeEmail.mascararNaExcecao(falha);

    StringWriter impresso = new StringWriter();
    copia.printStackTrace(new PrintWriter(impresso));
    assertThat(impresso.toString())
        .contains("java.lang.RuntimeException: could not send b***@x.org")
        .contains("java.lang.IllegalStateException: row (ord-1, a***@example.com)")
        .contains("java.lang.IllegalArgumentException: c***@y.net")
        .contains("excecaoMascaradaGuardaClassesEPilhaSemOEndereco")
        .doesNotContain("alice@")
        .doesNotContain("bob@")
        .doesNotContain("carol@");
    assertThat(MascaraDeEmail.mascararNaExcecao(null)).isNull();
  }

  @Test
  void causasEmCicloNaoPrendem() {
    RuntimeException a = new RuntimeException("a@x.y");
    RuntimeException b = new RuntimeException("b@x.y", a);
    a.initCause(b);

    Throwable copia = MascaraDeEmail.mascararNaExcecao(a);

    assertThat(copia.getMessage()).contains("a***@x.y");
    assertThat(copia.getCause().getCause()).isSameAs(copia);
  }
}
