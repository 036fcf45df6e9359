package pedidos.receptor.entrada;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import pedidos.receptor.gravacao.ObservadorDoReceptor;

/**
 * {@link AtalhoDoWebhook} on the webhook path only (Tomcat matches the path; no other request pays
 * for the filter), and first in the chain, so a delivery passes no other filter. Boot's character
 * encoding filter has the same order; Boot lists registration beans before the filters it adapts,
 * and sorts stably, which puts this one first ({@code AtalhoDoWebhookTest} holds it).
 */
@Configuration(proxyBeanMethods = false)
class RegistroDoAtalho {

  @Bean
  FilterRegistrationBean<AtalhoDoWebhook> atalhoDoWebhook(
      AtendimentoDaLoja atendimento, Problemas problemas, ObservadorDoReceptor observador) {
    FilterRegistrationBean<AtalhoDoWebhook> registro =
        new FilterRegistrationBean<>(new AtalhoDoWebhook(atendimento, problemas, observador));
    registro.addUrlPatterns(EndpointDaLoja.CAMINHO);
    registro.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return registro;
  }
}
