package pedidos.testes;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import pedidos.contrato.AssinaturaDeRegistro;

/**
 * That a service signing or verifying Kafka records reads its keys and refuses to start without a
 * usable one. The rules on the keys themselves are {@link AssinaturaDeRegistro}'s, tested there.
 */
public final class ChaveDeAssinaturaExigida {

  private static final String VALIDA = "k".repeat(AssinaturaDeRegistro.BYTES_MINIMOS_DA_CHAVE);

  private ChaveDeAssinaturaExigida() {}

  /**
   * @param contexto the part of the service that builds its {@link AssinaturaDeRegistro}, with no
   *     key set
   * @param propriedade where the service reads its comma-separated keys from
   */
  public static void verificar(ApplicationContextRunner contexto, String propriedade) {
    contexto.run(
        c ->
            assertThat(c)
                .getFailure()
                .rootCause()
                .hasMessageContaining(AssinaturaDeRegistro.VARIAVEL)
                .hasMessageContaining("no Kafka record signing key"));
    contexto
        .withPropertyValues(propriedade + "=" + VALIDA + ",curta")
        .run(
            c ->
                assertThat(c)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("key number 2 has 5 bytes"));
    contexto
        .withPropertyValues(propriedade + "=" + VALIDA + "," + "n".repeat(64))
        .run(c -> assertThat(c).hasNotFailed());
  }
}
