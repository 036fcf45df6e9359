package pedidos.aplicador.comandos;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top of the command line: the commands, and what the jar does without one. */
@Command(
    name = "java -jar aplicador.jar",
    description = {
      "The applier: applies the stored facts of loja.eventos to the orders and records their"
          + " effects in the outbox.",
      "Without a command it runs as the service: the Kafka listener, the sweep, reconciliation,"
          + " retention and the status page; its arguments are then Spring Boot's"
          + " (--name=value).",
      "With a command it runs that, says what it did and exits.",
    },
    subcommands = {
      ComandoDeReplay.class,
      ComandoDeMigracao.class,
      ComandoDeApagamento.class,
      ComandoDeRetencao.class,
      ComandoDeRederivacaoEmMassa.class,
      ComandosDaEntrega.Pausar.class,
      ComandosDaEntrega.Retomar.class,
      HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes (each command's --help says what they mean for it):%n",
    exitCodeList = {
      "0:done",
      "1:the command failed; the message says why",
      "2:usage: an option or an environment variable wrong or missing",
      "3:the database is down, unsupported or not migrated (apagar-cliente, reter,"
          + " pausar-entrega, retomar-entrega)"
    })
final class ComandosDoAplicador implements Runnable {

  @Mixin OpcaoDeAjuda ajuda;
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "Missing command: one of " + spec.subcommands().keySet());
  }
}
