package pedidos.gestao;

import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.crypto.password.Pbkdf2PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/** Who the operators are to Spring Security, the same in every service. */
public final class Operadores {

  /** The role that sees details; also {@code management.endpoint.health.roles}. */
  public static final String PAPEL = "OPS";

  /** The realm of the browser's login prompt. */
  public static final String REALM = "pedidos-ops";

  private Operadores() {}

  /**
   * PBKDF2 rather than bcrypt: bcrypt ignores what lies past 72 bytes, and its usual cost would be
   * paid on every request (Basic sends the password each time: the status page polls, Prometheus
   * scrapes). The password is long and random, so a moderate iteration count suffices; the point is
   * that a heap dump does not show it.
   */
  public static PasswordEncoder codificador() {
    return new Pbkdf2PasswordEncoder(
        "", 16, 10_000, Pbkdf2PasswordEncoder.SecretKeyFactoryAlgorithm.PBKDF2WithHmacSHA256);
  }

  /** The one operator, held only hashed; nobody when none is configured. */
  public static UserDetailsService de(Ops ops, PasswordEncoder codificador) {
    if (!ops.configurado()) {
      return new InMemoryUserDetailsManager();
    }
    return new InMemoryUserDetailsManager(
        User.withUsername(ops.usuario())
            .password(codificador.encode(ops.senha()))
            .roles(PAPEL)
            .build());
  }
}
