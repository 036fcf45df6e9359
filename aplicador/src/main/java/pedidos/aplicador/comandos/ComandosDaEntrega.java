package pedidos.aplicador.comandos;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Function;
import pedidos.aplicador.entrega.PausaDaEntrega;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pausar-entrega} and {@code retomar-entrega}: the status page's pause and resume of
 * delivery to the picking system ({@link PausaDaEntrega}), for an operator at a shell or a
 * maintenance script, audited the same way. As the applier's role, like {@code reter}; no Spring
 * context, no Kafka: the relay reads the state from the database.
 */
final class ComandosDaEntrega {

  /** Where the audit and the message say the change came from. */
  private static final String ORIGEM = "command line";

  private ComandosDaEntrega() {}

  /** Both commands' change, on one connection as the applier's role, then its report. */
  private static int mudar(
      CommandSpec spec,
      Credenciais aplicador,
      Function<PausaDaEntrega, PausaDaEntrega.Mudanca> mudanca) {
    try (ConexaoDeComando conexao = ConexaoDeComando.abrir(aplicador)) {
      PausaDaEntrega.Mudanca feita =
          mudanca.apply(new PausaDaEntrega(conexao.jdbc(), conexao.transacao()));
      relatar(feita, conexao, spec.commandLine().getOut());
      return ExitCode.OK;
    }
  }

  /** What both print after the change: the state the relays will read, and the backlog. */
  private static void relatar(
      PausaDaEntrega.Mudanca mudanca, ConexaoDeComando conexao, PrintWriter saida) {
    saida.printf("%s: %s%n", mudanca.resultado(), mudanca.detalhe());
    PausaDaEntrega.Situacao situacao = PausaDaEntrega.ler(conexao.jdbc());
    saida.printf(
        "delivery to separacao.efeitos: %s; %s%d effect(s) unsent, oldest %s%n",
        situacao.modo(),
        situacao.pendentesAoMenos() ? "at least " : "",
        situacao.pendentes(),
        situacao.idadeDoMaisAntigo() == null
            ? "none"
            : Math.round(situacao.idadeDoMaisAntigo()) + " s old");
  }

  @Command(
      name = "pausar-entrega",
      description = {
        "Pauses delivery of effects to the picking system (separacao.efeitos), as the status"
            + " page's Pause does: effects keep being recorded in the outbox and stay unsent; the"
            + " active relay (and any that takes over) stops publishing them within about a second"
            + " (publicador.entrega.intervalo), while inbox events still flow. Audited. Pausing a"
            + " paused delivery changes nothing.",
        "Runs as the applier's role, with the service's variables.",
      },
      exitCodeList = {
        "0:paused, or already paused (the output says since when and why)",
        "1:the change failed; nothing was changed: run it again",
        "2:usage: --motivo or --operador missing or too long, or the database variables missing",
        "3:the database is down, unsupported or not migrated; nothing was done"
      })
  static final class Pausar implements Callable<Integer> {

    @Mixin OpcaoDeAjuda ajuda;
    @Mixin Ambiente.DoAplicador variaveis;
    @Spec CommandSpec spec;

    @Option(
        names = "--motivo",
        required = true,
        paramLabel = "TEXT",
        description = "Why, for whoever finds it paused (at most 500 characters).")
    String motivo;

    @Option(
        names = "--operador",
        required = true,
        paramLabel = "NAME",
        description = "Who pauses, as the audit records it.")
    String operador;

    private final Ambiente ambiente;

    Pausar(Ambiente ambiente) {
      this.ambiente = ambiente;
    }

    @Override
    public Integer call() {
      Credenciais aplicador = ambiente.doAplicador(spec);
      validar(spec, operador);
      if (motivo.isBlank() || motivo.strip().length() > PausaDaEntrega.MOTIVO_MAXIMO) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(),
            "--motivo must say why, in at most " + PausaDaEntrega.MOTIVO_MAXIMO + " characters");
      }
      return mudar(spec, aplicador, pausa -> pausa.pausar(operador.strip(), motivo, ORIGEM));
    }
  }

  @Command(
      name = "retomar-entrega",
      description = {
        "Resumes delivery to the picking system, as the status page's Resume does: the active"
            + " relay sends the backlog from the outbox at publicador.entrega.efeitos-por-segundo,"
            + " each order's effects in order, then publishes from the stream again. Audited."
            + " Resuming a live delivery changes nothing.",
        "Runs as the applier's role, with the service's variables.",
      },
      exitCodeList = {
        "0:resumed, or it was not paused",
        "1:the change failed; nothing was changed: run it again",
        "2:usage: --operador missing, or the database variables missing",
        "3:the database is down, unsupported or not migrated; nothing was done"
      })
  static final class Retomar implements Callable<Integer> {

    @Mixin OpcaoDeAjuda ajuda;
    @Mixin Ambiente.DoAplicador variaveis;
    @Spec CommandSpec spec;

    @Option(
        names = "--operador",
        required = true,
        paramLabel = "NAME",
        description = "Who resumes, as the audit records it.")
    String operador;

    private final Ambiente ambiente;

    Retomar(Ambiente ambiente) {
      this.ambiente = ambiente;
    }

    @Override
    public Integer call() {
      Credenciais aplicador = ambiente.doAplicador(spec);
      validar(spec, operador);
      return mudar(spec, aplicador, pausa -> pausa.retomar(operador.strip(), ORIGEM));
    }
  }

  private static void validar(CommandSpec spec, String operador) {
    if (operador.isBlank()) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--operador must name who does it");
    }
  }
}
