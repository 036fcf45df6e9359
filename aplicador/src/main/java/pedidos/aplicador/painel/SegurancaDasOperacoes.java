package pedidos.aplicador.painel;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.gestao.Operadores;
import pedidos.gestao.Ops;

/**
 * Who may see what the applier shows. The status page, its JSON and every actuator endpoint need an
 * operator's credentials (HTTP Basic, so the browser's own prompt logs in and the page's fetch
 * reuses it); health, liveness and readiness answer anyone with their status only, because
 * orchestrators probe them without credentials. Anonymous gets 401 and no data.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class SegurancaDasOperacoes {

  @Bean
  SecurityFilterChain cadeiaDasOperacoes(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(
            pedidos ->
                pedidos
                    .requestMatchers(EndpointRequest.to(HealthEndpoint.class))
                    .permitAll()
                    .anyRequest()
                    .hasRole(Operadores.PAPEL))
        .httpBasic(basic -> basic.realmName(Operadores.REALM))
        // The actions guard against cross-site requests with a header a form cannot send
        // (AcoesDasOperacoes): Spring's token would need a session or a cookie this page lacks.
        .csrf(csrf -> csrf.ignoringRequestMatchers("/status/acoes/**"))
        // Every request carries its credentials: no session to steal or to keep in memory.
        .sessionManagement(sessao -> sessao.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
    return http.build();
  }

  @Bean
  UserDetailsService operadores(AplicadorProperties propriedades, PasswordEncoder codificador) {
    Ops ops = propriedades.ops();
    validar(ops.usuario(), ops.senha());
    return Operadores.de(ops, codificador);
  }

  @Bean
  PasswordEncoder codificadorDeSenhas() {
    return Operadores.codificador();
  }

  /**
   * Refuses a start without credentials, or with a password an attacker could guess ({@link Ops}'s
   * rule; here an operator is required as well).
   */
  static void validar(String usuario, String senha) {
    if (usuario == null || usuario.isBlank()) {
      throw new IllegalStateException(
          "no ops user configured: set PEDIDOS_OPS_USUARIO (and PEDIDOS_OPS_SENHA) to protect the"
              + " status page and the actuator");
    }
    new Ops(usuario, senha);
  }
}
