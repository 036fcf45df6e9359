package pedidos.aplicador.comandos;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The variables a command reads its database and settings from: the process's environment, or a
 * test's. Their names are the ones the service and the migration step are already given (Spring
 * Boot's), so an operator runs a command with the variables of the container it belongs to. A
 * missing variable is a usage error, as a missing option is.
 */
final class Ambiente {

  // The commands' help lists what they read, in these words.
  static final String URL_DO_DONO =
      "  SPRING_FLYWAY_URL        the database; else SPRING_DATASOURCE_URL";
  static final String USUARIO_DO_DONO =
      "  SPRING_FLYWAY_USER       the schema's owner role (pedidos_dono)";
  static final String SENHA_DO_DONO = "  SPRING_FLYWAY_PASSWORD   its password";
  static final String URL_DO_APLICADOR = "  SPRING_DATASOURCE_URL        the database";
  static final String USUARIO_DO_APLICADOR =
      "  SPRING_DATASOURCE_USERNAME   the applier's role; pedidos_aplicador if unset";
  static final String SENHA_DO_APLICADOR = "  SPRING_DATASOURCE_PASSWORD   its password";
  // Those of a command that runs in the service's context (replay, rederivar-em-massa).
  static final String DO_SERVICO = "  The service's own (SPRING_DATASOURCE_*, SPRING_KAFKA_*,";
  static final String DO_SERVICO_KAFKA =
      "  PEDIDOS_KAFKA_ASSINATURA...): it runs in the service's context, without";
  static final String DO_SERVICO_SEM_TRAFEGO = "  its web server, listener and periodic work.";

  static final String TITULO_DO_AMBIENTE = "%nEnvironment:%n";
  static final String TITULO_DOS_CODIGOS = "%nExit codes:%n";

  /**
   * The help's environment and exit codes headings, and the variables, of a command that runs in
   * the service's context ({@code replay}, {@code rederivar-em-massa}): a picocli mixin, whose
   * {@code @Command} attributes fill in those its command leaves unset.
   */
  @Command(
      footerHeading = TITULO_DO_AMBIENTE,
      footer = {DO_SERVICO, DO_SERVICO_KAFKA, DO_SERVICO_SEM_TRAFEGO},
      exitCodeListHeading = TITULO_DOS_CODIGOS)
  static final class DoServico {}

  /** The same for a command that connects as the applier's role ({@link #doAplicador}). */
  @Command(
      footerHeading = TITULO_DO_AMBIENTE,
      footer = {URL_DO_APLICADOR, USUARIO_DO_APLICADOR, SENHA_DO_APLICADOR},
      exitCodeListHeading = TITULO_DOS_CODIGOS)
  static final class DoAplicador {}

  /** The same for a command that connects as the schema's owner ({@link #doDono}). */
  @Command(
      footerHeading = TITULO_DO_AMBIENTE,
      footer = {URL_DO_DONO, USUARIO_DO_DONO, SENHA_DO_DONO},
      exitCodeListHeading = TITULO_DOS_CODIGOS)
  static final class DoDono {}

  /** The applier's own role, as application.properties names it. */
  private static final String PAPEL_DO_APLICADOR = "pedidos_aplicador";

  private final Map<String, String> variaveis;

  Ambiente(Map<String, String> variaveis) {
    this.variaveis = Map.copyOf(variaveis);
  }

  /**
   * The schema owner's connection, for what no service's role may do (migrations, the erasure of a
   * customer), named by Spring Boot's own Flyway variables, as the migration step is given them.
   */
  Credenciais doDono(CommandSpec comando) {
    Optional<String> url = valor("SPRING_FLYWAY_URL").or(() -> valor("SPRING_DATASOURCE_URL"));
    Optional<String> usuario = valor("SPRING_FLYWAY_USER");
    if (url.isEmpty() || usuario.isEmpty()) {
      throw new ParameterException(
          comando.commandLine(),
          comando.name()
              + " needs SPRING_FLYWAY_URL (or SPRING_DATASOURCE_URL) and SPRING_FLYWAY_USER /"
              + " SPRING_FLYWAY_PASSWORD: the owner role of the schema");
    }
    return new Credenciais(url.get(), usuario.get(), variaveis.get("SPRING_FLYWAY_PASSWORD"));
  }

  /** The applier's own connection, as the service is given it. */
  Credenciais doAplicador(CommandSpec comando) {
    Optional<String> url = valor("SPRING_DATASOURCE_URL");
    if (url.isEmpty()) {
      throw new ParameterException(
          comando.commandLine(),
          comando.name()
              + " needs SPRING_DATASOURCE_URL (and SPRING_DATASOURCE_USERNAME,"
              + " SPRING_DATASOURCE_PASSWORD): the applier's role, as the service is given it");
    }
    return new Credenciais(
        url.get(),
        valor("SPRING_DATASOURCE_USERNAME").orElse(PAPEL_DO_APLICADOR),
        variaveis.get("SPRING_DATASOURCE_PASSWORD"));
  }

  /**
   * The service's settings under {@code prefixo}, bound from the variables as the service binds
   * them ({@code APLICADOR_RETENCAO_LOTE} is {@code aplicador.retencao.lote}), defaults included.
   * Without the service's validator: the record checks what a command relies on.
   */
  <T> T vincular(CommandSpec comando, String prefixo, Class<T> tipo) {
    var fonte =
        new SystemEnvironmentPropertySource(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new HashMap<String, Object>(variaveis));
    try {
      return new Binder(ConfigurationPropertySources.from(fonte)).bindOrCreate(prefixo, tipo);
    } catch (RuntimeException e) {
      throw new ParameterException(
          comando.commandLine(),
          "bad settings under "
              + prefixo
              + ": "
              + NestedExceptionUtils.getMostSpecificCause(e).getMessage(),
          e);
    }
  }

  private Optional<String> valor(String nome) {
    return Optional.ofNullable(variaveis.get(nome)).filter(valor -> !valor.isBlank());
  }
}
