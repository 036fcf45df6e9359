package pedidos.publicador;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.EnableScheduling;
import pedidos.esquema.EsquemaNaPartida;
import pedidos.publicador.configuracao.ConexaoDoBanco;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.entrega.EntregaDosEfeitos;
import pedidos.publicador.entrega.ModoDaEntrega;
import pedidos.publicador.envio.FalhaAoPublicarException;
import pedidos.publicador.mortos.RepublicacaoDosMortos;

/**
 * The relay: new inbox rows to {@code loja.eventos}, new outbox rows to {@code separacao.efeitos},
 * through one Debezium engine on a replication slot held by one instance at a time. With {@code
 * republicar-mortos} as its first argument it re-publishes the dead-lettered rows instead (see
 * {@link RepublicacaoDosMortos}) and exits.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class PublicadorApplication {

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("republicar-mortos")) {
      System.exit(republicarMortos(Arrays.asList(args).subList(1, args.length)));
    }
    SpringApplication.run(PublicadorApplication.class, args);
  }

  /**
   * The republish command: no web server, no lease, no engine, no fallback; only the dead letters.
   * Safe beside a running relay (a row sent twice is a duplicate the consumers already absorb).
   *
   * @param argumentos Spring arguments, e.g. {@code --spring.datasource.url=...}
   * @return 0 when every open dead letter was re-published, 1 when some still fail or lack their
   *     row, 3 when Kafka or the database failed (nothing unacknowledged was closed)
   */
  static int republicarMortos(List<String> argumentos) {
    try (ConfigurableApplicationContext contexto =
        new SpringApplicationBuilder(PublicadorApplication.class)
            .web(WebApplicationType.NONE)
            .properties("publicador.transmitir=false")
            .run(argumentos.toArray(String[]::new))) {
      // An operator's pause of delivery to the picking system holds here too (README, "Pausing
      // delivery"): the outbox's letters wait until delivery is live again.
      boolean efeitos =
          contexto.getBean(EntregaDosEfeitos.class).atualizar().modo() == ModoDaEntrega.AO_VIVO;
      if (!efeitos) {
        System.out.println(
            "delivery to the picking system is paused or draining: outbox dead letters stay open;"
                + " run this again once it is live");
      }
      RepublicacaoDosMortos.Resumo resumo =
          contexto.getBean(RepublicacaoDosMortos.class).executar(System.out, efeitos);
      System.out.printf(
          "republicar-mortos done: re-published %d, still failing %d, row gone %d%n",
          resumo.republicadas(), resumo.aindaMortas(), resumo.semLinha());
      return resumo.aindaMortas() + resumo.semLinha() == 0 ? 0 : 1;
    } catch (FalhaAoPublicarException | DataAccessException e) {
      System.err.println("republicar-mortos failed, open dead letters stay open: " + e);
      return 3;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 3;
    }
  }

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  ConexaoDoBanco conexaoDoBanco(PublicadorProperties propriedades, DataSourceProperties fonte) {
    return ConexaoDoBanco.de(
        propriedades.banco(),
        fonte.determineUrl(),
        fonte.determineUsername(),
        fonte.determinePassword());
  }

  /**
   * Never migrates (its role cannot): refuses an unsupported PostgreSQL or a schema that is not
   * migrated, warns about a superuser.
   */
  @Bean
  FlywayMigrationStrategy esquemaVerificadoNaPartida() {
    return EsquemaNaPartida::verificar;
  }
}
