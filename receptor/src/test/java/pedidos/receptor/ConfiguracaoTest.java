package pedidos.receptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;

/** The module's one configuration record: defaults, secrets, and refusing to start without one. */
class ConfiguracaoTest {

  private final ApplicationContextRunner contexto =
      new ApplicationContextRunner().withUserConfiguration(SoAsPropriedades.class);

  @Test
  void osPadroesSaoOsDoIssue() {
    contexto
        .withPropertyValues("receptor.segredos=" + Entregas.SEGREDO)
        .run(
            ctx -> {
              ReceptorProperties propriedades = ctx.getBean(ReceptorProperties.class);
              assertThat(propriedades.limiteDoCorpo()).isEqualTo(1024 * 1024);
              assertThat(propriedades.gravacao().modo()).isEqualTo(ReceptorProperties.Modo.GRUPO);
              assertThat(propriedades.gravacao().esperaMaxima()).isEqualTo(Duration.ZERO);
              assertThat(propriedades.esperaSugerida()).isEqualTo(Duration.ofSeconds(5));
              assertThat(propriedades.limiteDoCorpo()).isEqualTo(EnvelopeDeEntrada.BYTES_DO_CORPO);
              assertThat(propriedades.corposEmMemoria()).isEqualTo(DataSize.ofMegabytes(128));
              assertThat(propriedades.gravacao().bytesNaFila()).isEqualTo(DataSize.ofMegabytes(64));
            });
  }

  @Test
  void umCorpoMaiorQueOEnvelopeNaoSobeEDizPorque() {
    contexto
        .withPropertyValues(
            "receptor.segredos=" + Entregas.SEGREDO, "receptor.tamanho-maximo-do-corpo=2MB")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("receptor.tamanho-maximo-do-corpo")
                    .hasMessageContaining(Integer.toString(EnvelopeDeEntrada.BYTES_DO_CORPO)));
    contexto
        .withPropertyValues(
            "receptor.segredos=" + Entregas.SEGREDO, "receptor.tamanho-maximo-do-corpo=1048577B")
        .run(ctx -> assertThat(ctx).hasFailed());
    contexto
        .withPropertyValues(
            "receptor.segredos=" + Entregas.SEGREDO, "receptor.tamanho-maximo-do-corpo=1048576B")
        .run(ctx -> assertThat(ctx).hasNotFailed());
  }

  @Test
  void limitesDeBytesAbaixoDeUmCorpoNaoSobem() {
    contexto
        .withPropertyValues(
            "receptor.segredos=" + Entregas.SEGREDO,
            "receptor.tamanho-maximo-do-corpo=64KB",
            "receptor.corpos-em-memoria=32KB")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("receptor.corpos-em-memoria"));
    contexto
        .withPropertyValues(
            "receptor.segredos=" + Entregas.SEGREDO, "receptor.gravacao.bytes-na-fila=512KB")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("receptor.gravacao.bytes-na-fila"));
  }

  @Test
  void variosSegredosSeparadosPorVirgula() {
    contexto
        .withPropertyValues(
            "receptor.segredos=${LOJA_WEBHOOK_SECRET:}",
            "LOJA_WEBHOOK_SECRET=" + Entregas.SEGREDO + ", " + Entregas.SEGREDO_ANTIGO)
        .run(
            ctx ->
                assertThat(ctx.getBean(ReceptorProperties.class).segredos())
                    .containsExactly(Entregas.SEGREDO, Entregas.SEGREDO_ANTIGO));
  }

  @Test
  void umSegredoCurtoDemaisNaoSobeEDizPorqueSemMostraLo() {
    contexto
        .withPropertyValues(
            "receptor.segredos=${LOJA_WEBHOOK_SECRET:}",
            "LOJA_WEBHOOK_SECRET=" + Entregas.SEGREDO + ",curto-" + "x".repeat(25))
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("secret number 2 has 31 bytes")
                    .hasMessageContaining("at least 32")
                    .message()
                    .doesNotContain("curto"));
  }

  @Test
  void segredosDoStandardWebhooksContamOsBytesDaChave() {
    // whsec_ + base64 of 24 bytes: 32 characters, but a 24-byte key.
    String curto = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[24]);
    String bom = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
    contexto
        .withPropertyValues("receptor.segredos=" + curto)
        .run(ctx -> assertThat(ctx).getFailure().rootCause().hasMessageContaining("24 bytes"));
    contexto
        .withPropertyValues(
            "receptor.segredos=" + bom, "receptor.assinatura.esquemas=standard-webhooks,loja")
        .run(
            ctx ->
                assertThat(ctx.getBean(ReceptorProperties.class).assinatura().esquemas())
                    .containsExactly(
                        EsquemaDeAssinatura.STANDARD_WEBHOOKS, EsquemaDeAssinatura.LOJA));
  }

  @Test
  void semSegredoOContextoNaoSobeEDizPorque() {
    contexto
        .withPropertyValues("receptor.segredos=${LOJA_WEBHOOK_SECRET:}")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("LOJA_WEBHOOK_SECRET"));
  }

  @Test
  void aAplicacaoDeVerdadeRecusaSubirSemSegredo() {
    PostgresLocal postgres = BancoDeTeste.compartilhado();

    Throwable falha =
        catchThrowable(
            () ->
                new SpringApplicationBuilder(ReceptorApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(
                        "--spring.datasource.url=" + postgres.jdbcUrl(),
                        "--spring.datasource.username=" + PapelNoBanco.RECEPTOR.nome(),
                        "--spring.datasource.password=" + PapelNoBanco.RECEPTOR.senhaLocal(),
                        "--LOJA_WEBHOOK_SECRET=")
                    .close());

    assertThat(falha).isNotNull();
    assertThat(falha).rootCause().hasMessageContaining("LOJA_WEBHOOK_SECRET");
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void conectadoComoSuperusuarioAvisaNaPartida(CapturedOutput saida) {
    PostgresLocal postgres = BancoDeTeste.compartilhado();

    new SpringApplicationBuilder(ReceptorApplication.class)
        .web(WebApplicationType.NONE)
        .run(
            "--spring.datasource.url=" + postgres.jdbcUrl(),
            "--spring.datasource.username=" + postgres.usuario(),
            "--spring.datasource.password=" + postgres.senha(),
            "--LOJA_WEBHOOK_SECRET=" + Entregas.SEGREDO)
        .close();

    assertThat(saida.getOut())
        .contains("WARN")
        .contains("connected to PostgreSQL as " + postgres.usuario() + ", a superuser");
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void comOProprioPapelNaoAvisa(CapturedOutput saida) {
    PostgresLocal postgres = BancoDeTeste.compartilhado();

    new SpringApplicationBuilder(ReceptorApplication.class)
        .web(WebApplicationType.NONE)
        .run(
            "--spring.datasource.url=" + postgres.jdbcUrl(),
            "--spring.datasource.username=" + PapelNoBanco.RECEPTOR.nome(),
            "--spring.datasource.password=" + PapelNoBanco.RECEPTOR.senhaLocal(),
            "--LOJA_WEBHOOK_SECRET=" + Entregas.SEGREDO)
        .close();

    assertThat(saida.getOut()).doesNotContain("a superuser");
  }

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ReceptorProperties.class)
  static class SoAsPropriedades {}
}
