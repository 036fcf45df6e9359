package pedidos.gestao;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Spring Security for the actuator only, in the management server's own context, for a service
 * whose own port has no security filter at all (the receptor, the relay: Spring Boot's security
 * auto-configuration is excluded from their application context, so their requests cost and behave
 * exactly as without it). A service opts in by listing this class in its {@code
 * META-INF/spring/...ManagementContextConfiguration.imports}; its properties record implements
 * {@link ComOps}. Health, liveness and readiness answer anyone with their status (orchestrators
 * probe them); the details and every other endpoint need an operator, and nobody reads them when
 * none is configured.
 *
 * <p>If the management port is the service's port ({@code MANAGEMENT_SERVER_PORT} unset or equal to
 * {@code SERVER_PORT}) this configuration joins the application's context and guards the actuator's
 * paths there.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableWebSecurity
public class SegurancaDaGestao {

  @Bean
  SecurityFilterChain cadeiaDaGestao(HttpSecurity http) throws Exception {
    http.securityMatcher(EndpointRequest.toAnyEndpoint())
        .authorizeHttpRequests(
            pedidos ->
                pedidos
                    .requestMatchers(EndpointRequest.to(HealthEndpoint.class))
                    .permitAll()
                    .anyRequest()
                    .hasRole(Operadores.PAPEL))
        .httpBasic(basic -> basic.realmName(Operadores.REALM))
        // Every request carries its credentials: no session to steal or to keep in memory.
        .sessionManagement(sessao -> sessao.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
    return http.build();
  }

  @Bean
  UserDetailsService operadoresDaGestao(ComOps propriedades, PasswordEncoder codificador) {
    // No one configured: the health status stays open, everything else answers 401.
    return Operadores.de(propriedades.ops(), codificador);
  }

  @Bean
  PasswordEncoder codificadorDaGestao() {
    return Operadores.codificador();
  }
}
