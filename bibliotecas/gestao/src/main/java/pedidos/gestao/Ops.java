package pedidos.gestao;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The operators' credentials ({@code PEDIDOS_OPS_USUARIO}, {@code PEDIDOS_OPS_SENHA}), the {@code
 * ops} field of every service's properties record: one user for HTTP Basic, never half-set nor
 * short. Whether a service may run without one is the service's rule (the applier refuses, the
 * receptor and the relay keep their actuator closed).
 *
 * @param usuario the user name for HTTP Basic; blank when none is configured
 * @param senha at least {@value #TAMANHO_MINIMO_DA_SENHA} characters when a user is configured
 */
public record Ops(@DefaultValue("") String usuario, @DefaultValue("") String senha) {

  public static final int TAMANHO_MINIMO_DA_SENHA = 16;

  public Ops {
    boolean comUsuario = usuario != null && !usuario.isBlank();
    boolean comSenha = senha != null && !senha.isEmpty();
    if (comUsuario != comSenha) {
      throw new IllegalArgumentException(
          "PEDIDOS_OPS_USUARIO and PEDIDOS_OPS_SENHA go together: set both, or neither");
    }
    if (comSenha && senha.length() < TAMANHO_MINIMO_DA_SENHA) {
      throw new IllegalArgumentException(
          "PEDIDOS_OPS_SENHA must have at least "
              + TAMANHO_MINIMO_DA_SENHA
              + " characters (openssl rand -hex 16)");
    }
  }

  public boolean configurado() {
    return usuario != null && !usuario.isBlank();
  }

  @Override
  public String toString() {
    // A record prints every field; a failed start or a debug log must never print the password.
    return "Ops[usuario=" + usuario + ", senha=(hidden)]";
  }
}
