package pedidos.aplicador.comandos;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import pedidos.aplicador.comandos.ConexaoDeComando.BancoIndisponivelException;
import pedidos.contrato.MascaraDeEmail;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The applier's command line: the operators' commands ({@code replay}, {@code migrar}, {@code
 * apagar-cliente}, {@code reter}), read by picocli, each with its {@code --help}. Exit codes are
 * picocli's ({@link CommandLine.ExitCode}): 0 done, 1 the command failed, 2 a usage error (an
 * option or a variable wrong or missing); and {@link #BANCO_INDISPONIVEL}.
 *
 * <p>The commands are made through a Spring bean factory ({@link FabricaDeComandos}) that holds
 * what they need: the environment they read and, for {@code replay}, the start of the service's
 * context, whose beans it runs with. The others connect on their own, with a role no service has.
 */
public final class LinhaDeComando {

  /** Exit code when the database is down, unsupported or not migrated: the command did nothing. */
  static final int BANCO_INDISPONIVEL = 3;

  private LinhaDeComando() {}

  /**
   * Whether the arguments ask for a command (or for help) rather than for the service. The service
   * takes only Spring Boot's {@code --name=value} arguments (the image's training run gives it
   * one), so anything else is the command line's, to run or to refuse with its usage.
   */
  public static boolean pedeUmComando(String... argumentos) {
    return argumentos.length > 0
        && (!argumentos[0].startsWith("--") || argumentos[0].equals("--help"));
  }

  /**
   * Runs the command the arguments name, writing to the standard output and error.
   *
   * @param ambiente the variables the command reads (the process's environment)
   * @return the exit code
   */
  public static int executar(
      String[] argumentos, Map<String, String> ambiente, ServicoSemOuvinte servico) {
    return executar(criar(ambiente, servico), argumentos);
  }

  /** The same, writing to the given writers instead. */
  public static int executar(
      String[] argumentos,
      Map<String, String> ambiente,
      ServicoSemOuvinte servico,
      PrintWriter saida,
      PrintWriter erro) {
    return executar(criar(ambiente, servico).setOut(saida).setErr(erro), argumentos);
  }

  private static int executar(CommandLine linha, String[] argumentos) {
    try {
      return linha.execute(argumentos);
    } finally {
      linha.getOut().flush();
      linha.getErr().flush();
    }
  }

  static CommandLine criar(Map<String, String> ambiente, ServicoSemOuvinte servico) {
    var beans = new DefaultListableBeanFactory();
    beans.registerSingleton("ambiente", new Ambiente(ambiente));
    beans.registerSingleton("servicoSemOuvinte", servico);
    return new CommandLine(ComandosDoAplicador.class, new FabricaDeComandos(beans))
        .setParameterExceptionHandler(LinhaDeComando::usoErrado)
        .setExecutionExceptionHandler(LinhaDeComando::falhou);
  }

  /**
   * A usage error: what is wrong, picocli's suggestions for a misspelt name, the command's synopsis
   * and where its help is; the whole help would bury the one line that matters.
   */
  private static int usoErrado(ParameterException erro, String[] argumentos) {
    CommandLine comando = erro.getCommandLine();
    PrintWriter saida = comando.getErr();
    saida.println(erro.getMessage());
    UnmatchedArgumentException.printSuggestions(erro, saida);
    CommandLine.Help ajuda = comando.getHelp();
    saida.print(ajuda.synopsisHeading() + ajuda.synopsis(ajuda.synopsisHeadingLength()));
    saida.printf("See '%s --help'.%n", comando.getCommandSpec().qualifiedName());
    return comando.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * The one report of a command that threw: what failed, with customer emails masked (a database
   * error may quote a row), and the stack trace for a failure nobody named.
   */
  private static int falhou(Exception falha, CommandLine comando, ParseResult argumentos) {
    PrintWriter erro = comando.getErr();
    if (falha instanceof BancoIndisponivelException) {
      erro.println(
          comando.getCommandName()
              + " cannot use the database (nothing was done): "
              + MascaraDeEmail.mascararNoTexto(falha.getMessage()));
      return BANCO_INDISPONIVEL;
    }
    var pilha = new StringWriter();
    falha.printStackTrace(new PrintWriter(pilha));
    erro.println(
        comando.getCommandName() + " failed: " + MascaraDeEmail.mascararNoTexto(falha.toString()));
    erro.print(MascaraDeEmail.mascararNoTexto(pilha.toString()));
    return comando.getCommandSpec().exitCodeOnExecutionException();
  }
}
