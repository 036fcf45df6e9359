package pedidos.aplicador;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import pedidos.aplicador.apagamento.ApagamentoDeCliente;
import pedidos.aplicador.apagamento.ResumoDoApagamento;
import pedidos.aplicador.replay.OpcoesDeReplay;
import pedidos.aplicador.replay.Replay;
import pedidos.aplicador.replay.ResumoDoReplay;
import pedidos.aplicador.retencao.ResumoDaRetencao;
import pedidos.aplicador.retencao.Retencao;
import pedidos.contrato.MascaraDeEmail;
import pedidos.esquema.EsquemaNaPartida;

/**
 * The applier service: turns stored facts into the pedidos table and outbox effects. With a command
 * as its first argument it runs that instead and exits: {@code replay} (see {@link
 * OpcoesDeReplay}), {@code migrar}, {@code apagar-cliente --email=...} (erasure of one customer)
 * and {@code reter} (one retention pass).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AplicadorApplication {

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("replay")) {
      System.exit(replay(Arrays.asList(args).subList(1, args.length)));
    }
    if (args.length > 0 && args[0].equals("migrar")) {
      System.exit(migrar(System::getenv));
    }
    if (args.length > 0 && args[0].equals("apagar-cliente")) {
      System.exit(
          apagarCliente(Arrays.asList(args).subList(1, args.length), System.getenv(), System.out));
    }
    if (args.length > 0 && args[0].equals("reter")) {
      System.exit(reter(System.getenv(), System.out));
    }
    SpringApplication.run(AplicadorApplication.class, args);
  }

  /**
   * The migration step, run before the services (compose's {@code migracao}): every migration as
   * the owner role, named by Spring Boot's own Flyway variables ({@code SPRING_FLYWAY_URL}, else
   * {@code SPRING_DATASOURCE_URL}; {@code SPRING_FLYWAY_USER}, {@code SPRING_FLYWAY_PASSWORD}).
   */
  static int migrar(UnaryOperator<String> ambiente) {
    String url = ambiente.apply("SPRING_FLYWAY_URL");
    if (url == null || url.isBlank()) {
      url = ambiente.apply("SPRING_DATASOURCE_URL");
    }
    String usuario = ambiente.apply("SPRING_FLYWAY_USER");
    if (url == null || url.isBlank() || usuario == null || usuario.isBlank()) {
      System.err.println(
          "migrar needs SPRING_FLYWAY_URL (or SPRING_DATASOURCE_URL) and SPRING_FLYWAY_USER /"
              + " SPRING_FLYWAY_PASSWORD: the owner role of the schema");
      return 2;
    }
    EsquemaNaPartida.migrar(url, usuario, ambiente.apply("SPRING_FLYWAY_PASSWORD"));
    return 0;
  }

  /**
   * The erasure of one customer ({@link ApagamentoDeCliente}), as the owner role with the migration
   * step's variables: it rewrites tables no service may write. No Spring context, no Kafka.
   *
   * @return 0 done (or nothing to do), 1 failed part way (run it again: it is idempotent), 2 usage,
   *     3 the database is down, unsupported or not migrated
   */
  public static int apagarCliente(
      List<String> argumentos, Map<String, String> ambiente, PrintStream saida) {
    String uso = "usage: apagar-cliente --email=ADDRESS (as the owner role: SPRING_FLYWAY_USER)";
    if (argumentos.size() != 1 || !argumentos.get(0).startsWith("--email=")) {
      System.err.println(uso);
      return 2;
    }
    String email;
    try {
      email = ApagamentoDeCliente.validar(argumentos.get(0).substring("--email=".length()));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      return 2;
    }
    String url = ambiente.get("SPRING_FLYWAY_URL");
    if (url == null || url.isBlank()) {
      url = ambiente.get("SPRING_DATASOURCE_URL");
    }
    String usuario = ambiente.get("SPRING_FLYWAY_USER");
    if (url == null || url.isBlank() || usuario == null || usuario.isBlank()) {
      System.err.println(
          "apagar-cliente needs SPRING_FLYWAY_URL (or SPRING_DATASOURCE_URL) and SPRING_FLYWAY_USER"
              + " / SPRING_FLYWAY_PASSWORD: the owner role of the schema, as for migrar");
      return 2;
    }
    ConexaoDeComando conexao;
    try {
      conexao = ConexaoDeComando.abrir(url, usuario, ambiente.get("SPRING_FLYWAY_PASSWORD"));
    } catch (RuntimeException e) {
      System.err.println("apagar-cliente cannot use the database: " + e.getMessage());
      return 3;
    }
    try {
      String mascarado = MascaraDeEmail.mascarar(email);
      ResumoDoApagamento resumo =
          new ApagamentoDeCliente(conexao.jdbc(), conexao.transacao()).apagar(email);
      if (resumo.nada()) {
        saida.printf(
            "nothing to erase: no row holds %s (never stored, or erased already)%n", mascarado);
        return 0;
      }
      saida.printf(
          "erased %s from %d order(s), replaced by %s:%n",
          mascarado, resumo.pedidosEncontrados(), ApagamentoDeCliente.ANONIMO);
      saida.printf("  pedidos: %d row(s)%n", resumo.pedidos());
      saida.printf("  webhook_eventos: %d payload(s) or reason(s)%n", resumo.eventos());
      saida.printf("  outbox: %d snapshot(s)%n", resumo.efeitos());
      saida.printf("  webhook_quarentena: %d body(ies)%n", resumo.quarentena());
      saida.printf("  publicador_mortos: %d reason(s)%n", resumo.mortos());
      saida.println(
          "Kafka's records cannot be edited: copies in the topics last until the topics' retention"
              + " drops them (README, \"Data lifecycle\").");
      return 0;
    } catch (RuntimeException e) {
      System.err.println(
          "apagar-cliente failed part way (the orders done stay done; run it again): "
              + MascaraDeEmail.mascararNoTexto(e.toString()));
      return 1;
    } finally {
      conexao.fechar();
    }
  }

  /**
   * One retention pass now ({@link Retencao}), as the applier's role, with the service's {@code
   * aplicador.retencao.*} settings from the environment ({@code APLICADOR_RETENCAO_LOTE=...}); for
   * an operator who shortened a period, and for the benchmark. No Spring context, no Kafka.
   */
  public static int reter(Map<String, String> ambiente, PrintStream saida) {
    String url = ambiente.get("SPRING_DATASOURCE_URL");
    if (url == null || url.isBlank()) {
      System.err.println("reter needs SPRING_DATASOURCE_URL (and _USERNAME, _PASSWORD)");
      return 2;
    }
    AplicadorProperties.Retencao politica;
    try {
      politica =
          new Binder(
                  ConfigurationPropertySources.from(
                      new SystemEnvironmentPropertySource(
                          StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                          new java.util.HashMap<String, Object>(ambiente))))
              .bindOrCreate("aplicador.retencao", AplicadorProperties.Retencao.class);
    } catch (RuntimeException e) {
      System.err.println("bad retention settings: " + e.getMessage());
      return 2;
    }
    String usuario = ambiente.getOrDefault("SPRING_DATASOURCE_USERNAME", "pedidos_aplicador");
    ConexaoDeComando conexao;
    try {
      conexao = ConexaoDeComando.abrir(url, usuario, ambiente.get("SPRING_DATASOURCE_PASSWORD"));
    } catch (RuntimeException e) {
      System.err.println("reter cannot use the database: " + e.getMessage());
      return 3;
    }
    try {
      ResumoDaRetencao resumo =
          new Retencao(
                  conexao.jdbc(),
                  conexao.transacao(),
                  politica,
                  new MetricasDoAplicador(new SimpleMeterRegistry()),
                  Clock.systemUTC())
              .executar();
      saida.printf(
          "retention pass: redacted %d inbox payload(s), deleted %d quarantined body(ies),"
              + " deleted %d sent outbox row(s) and cleared the email of %d;"
              + " %d batch(es) of up to %d rows in %d ms, longest batch %.1f ms%n",
          resumo.corposRedigidos(),
          resumo.quarentenaApagada(),
          resumo.outboxApagado(),
          resumo.outboxEmailsRemovidos(),
          resumo.lotes(),
          politica.lote(),
          resumo.nanos() / 1_000_000,
          resumo.maiorLoteNanos() / 1e6);
      return 0;
    } finally {
      conexao.fechar();
    }
  }

  /** The replay command: no web server, no listener, no periodic work; only the replay. */
  static int replay(List<String> argumentos) {
    OpcoesDeReplay opcoes;
    try {
      opcoes = OpcoesDeReplay.ler(argumentos);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      return 2;
    }
    try (ConfigurableApplicationContext contexto =
        new SpringApplicationBuilder(AplicadorApplication.class)
            .web(WebApplicationType.NONE)
            .properties(
                "spring.kafka.listener.auto-startup=false", "aplicador.tarefas-periodicas=false")
            .run()) {
      ResumoDoReplay resumo = contexto.getBean(Replay.class).executar(opcoes, System.out);
      System.out.printf(
          "replay done: read %d, restored %d, applied %d, unapplicable %d,"
              + " unsigned or wrongly signed %d%n",
          resumo.lidos(),
          resumo.restaurados(),
          resumo.aplicados(),
          resumo.inaplicaveis(),
          resumo.naoAutenticados());
      return 0;
    }
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
