package pedidos.aplicador.comandos;

import picocli.CommandLine.Option;

/** The {@code -h, --help} of every command. */
final class OpcaoDeAjuda {

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Shows this help and exits.")
  boolean ajuda;
}
