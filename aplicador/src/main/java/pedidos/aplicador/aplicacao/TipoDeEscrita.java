package pedidos.aplicador.aplicacao;

import pedidos.dominio.Escrita;

/**
 * The kinds of {@link Escrita} the policy decides, one constant each, so that the apply dispatches
 * on them with a switch the compiler checks for every constant. The domain is compiled for Java 17,
 * where a switch cannot take a sealed interface's records: this enum stands for them, and {@code
 * TipoDeEscritaTest} holds it to the interface's permitted records, so a new kind of write fails
 * the build here instead of being taken for nothing.
 */
enum TipoDeEscrita {
  NADA(Escrita.Nada.class),
  ASSENTAR(Escrita.Assentar.class),
  GRAVAR(Escrita.Gravar.class);

  private final Class<? extends Escrita> tipo;

  TipoDeEscrita(Class<? extends Escrita> tipo) {
    this.tipo = tipo;
  }

  Class<? extends Escrita> tipo() {
    return tipo;
  }

  static TipoDeEscrita de(Escrita escrita) {
    for (TipoDeEscrita candidato : values()) {
      if (candidato.tipo.isInstance(escrita)) {
        return candidato;
      }
    }
    throw new IllegalStateException(
        "a write this applier does not know how to store: " + escrita.getClass().getName());
  }
}
