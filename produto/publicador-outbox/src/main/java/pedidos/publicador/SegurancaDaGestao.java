package pedidos.publicador;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.crypto.password.Pbkdf2PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Spring Security for the actuator only, in the management server's own context (registered in
 * {@code META-INF/spring/...ManagementContextConfiguration.imports}). Spring Boot's security
 * auto-configuration is excluded from the application's context, so the service's own port has no
 * security filter at all: its requests cost and behave exactly as before. Health, liveness and
 * readiness answer anyone with their status (orchestrators probe them); the details and every other
 * endpoint need an operator ({@code PEDIDOS_OPS_USUARIO}, {@code PEDIDOS_OPS_SENHA}), and nobody
 * reads them when none is configured.
 *
 * <p>If the management port is the service's port ({@code MANAGEMENT_SERVER_PORT} unset or equal to
 * {@code SERVER_PORT}) this configuration joins the application's context and guards the actuator's
 * paths there.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableWebSecurity
class SegurancaDaGestao {

  /** The role that sees details; also {@code management.endpoint.health.roles}. */
  static final String PAPEL = "OPS";

  @Bean
  SecurityFilterChain cadeiaDaGestao(HttpSecurity http) throws Exception {
    http.securityMatcher(EndpointRequest.toAnyEndpoint())
        .authorizeHttpRequests(
            pedidos ->
                pedidos
                    .requestMatchers(EndpointRequest.to(HealthEndpoint.class))
                    .permitAll()
                    .anyRequest()
                    .hasRole(PAPEL))
        .httpBasic(basic -> basic.realmName("pedidos-ops"))
        // Every request carries its credentials: no session to steal or to keep in memory.
        .sessionManagement(sessao -> sessao.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
    return http.build();
  }

  @Bean
  UserDetailsService operadoresDaGestao(
      PublicadorProperties propriedades, PasswordEncoder codificador) {
    PublicadorProperties.Ops ops = propriedades.ops();
    if (!ops.configurado()) {
      // No one: the health status stays open, everything else answers 401.
      return new InMemoryUserDetailsManager();
    }
    return new InMemoryUserDetailsManager(
        User.withUsername(ops.usuario())
            .password(codificador.encode(ops.senha()))
            .roles(PAPEL)
            .build());
  }

  /**
   * PBKDF2 rather than bcrypt: bcrypt ignores what lies past 72 bytes, and its usual cost would be
   * paid on every scrape (Basic sends the password each time). The password is long and random, so
   * a moderate iteration count suffices; the point is that a heap dump does not show it.
   */
  @Bean
  PasswordEncoder codificadorDaGestao() {
    return new Pbkdf2PasswordEncoder(
        "", 16, 10_000, Pbkdf2PasswordEncoder.SecretKeyFactoryAlgorithm.PBKDF2WithHmacSHA256);
  }
}
