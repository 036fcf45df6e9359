package pedidos.aplicador.painel;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.crypto.password.Pbkdf2PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import pedidos.aplicador.AplicadorProperties;

/**
 * Who may see what the applier shows. The status page, its JSON and every actuator endpoint need an
 * operator's credentials (HTTP Basic, so the browser's own prompt logs in and the page's fetch
 * reuses it); health, liveness and readiness answer anyone with their status only, because
 * orchestrators probe them without credentials. Anonymous gets 401 and no data.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class SegurancaDasOperacoes {

  /** The role that sees details; also {@code management.endpoint.health.roles}. */
  static final String PAPEL = "OPS";

  static final int TAMANHO_MINIMO_DA_SENHA = 16;

  @Bean
  SecurityFilterChain cadeiaDasOperacoes(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(
            pedidos ->
                pedidos
                    .requestMatchers(EndpointRequest.to(HealthEndpoint.class))
                    .permitAll()
                    .anyRequest()
                    .hasRole(PAPEL))
        .httpBasic(basic -> basic.realmName("pedidos-ops"))
        // The actions guard against cross-site requests with a header a form cannot send
        // (AcoesDasOperacoes): Spring's token would need a session or a cookie this page lacks.
        .csrf(csrf -> csrf.ignoringRequestMatchers("/status/acoes/**"))
        // Every request carries its credentials: no session to steal or to keep in memory.
        .sessionManagement(sessao -> sessao.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
    return http.build();
  }

  @Bean
  UserDetailsService operadores(AplicadorProperties propriedades, PasswordEncoder codificador) {
    AplicadorProperties.Ops ops = propriedades.ops();
    validar(ops.usuario(), ops.senha());
    return new InMemoryUserDetailsManager(
        User.withUsername(ops.usuario())
            .password(codificador.encode(ops.senha()))
            .roles(PAPEL)
            .build());
  }

  /**
   * PBKDF2 rather than bcrypt: bcrypt ignores what lies past 72 bytes, and its usual cost would be
   * paid on every request (Basic sends the password each time; the page polls every 5 s, Prometheus
   * scrapes). The password is long (16+) and random, so a moderate iteration count suffices; the
   * point is that a heap dump does not show it.
   */
  @Bean
  PasswordEncoder codificadorDeSenhas() {
    return new Pbkdf2PasswordEncoder(
        "", 16, 10_000, Pbkdf2PasswordEncoder.SecretKeyFactoryAlgorithm.PBKDF2WithHmacSHA256);
  }

  /** Refuses a start without credentials, or with a password an attacker could guess. */
  static void validar(String usuario, String senha) {
    if (usuario == null || usuario.isBlank()) {
      throw new IllegalStateException(
          "no ops user configured: set PEDIDOS_OPS_USUARIO (and PEDIDOS_OPS_SENHA) to protect the"
              + " status page and the actuator");
    }
    if (senha == null || senha.length() < TAMANHO_MINIMO_DA_SENHA) {
      throw new IllegalStateException(
          "PEDIDOS_OPS_SENHA must have at least "
              + TAMANHO_MINIMO_DA_SENHA
              + " characters (openssl rand -hex 16)");
    }
  }
}
