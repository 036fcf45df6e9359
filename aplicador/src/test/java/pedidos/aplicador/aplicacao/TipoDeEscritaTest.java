package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import pedidos.dominio.Escrita;
import pedidos.dominio.Resultado;

/**
 * The apply's switch covers every kind of write the domain may decide: a new record of {@link
 * Escrita} without its constant fails here, not in production as a write taken for nothing.
 */
class TipoDeEscritaTest {

  @Test
  void cadaEscritaDoDominioTemSeuTipo() {
    List<Class<?>> doDominio = Arrays.asList(Escrita.class.getPermittedSubclasses());

    List<Class<?>> daqui =
        Arrays.stream(TipoDeEscrita.values()).<Class<?>>map(TipoDeEscrita::tipo).toList();

    assertThat(daqui).containsExactlyInAnyOrderElementsOf(doDominio);
  }

  @Test
  void cadaEscritaCaiNoSeuTipo() {
    assertThat(TipoDeEscrita.de(new Escrita.Nada())).isEqualTo(TipoDeEscrita.NADA);
    assertThat(TipoDeEscrita.de(new Escrita.Assentar("e", Resultado.TIPO_IGNORADO, "tipo")))
        .isEqualTo(TipoDeEscrita.ASSENTAR);
  }
}
