package pedidos.aplicador.comandos;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.springframework.context.ConfigurableApplicationContext;
import pedidos.aplicador.painel.Desfecho;
import pedidos.aplicador.painel.ExecutorDeRederivacoes;
import pedidos.aplicador.painel.LotesDeRederivacao;
import pedidos.aplicador.painel.LotesDeRederivacao.Filtro;
import pedidos.aplicador.painel.LotesDeRederivacao.Lote;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code rederivar-em-massa}: the status page's bulk re-derivation ({@link LotesDeRederivacao},
 * {@link ExecutorDeRederivacoes}) from the command line, in the service's context without its web
 * server or listener, with a progress line.
 */
@Command(
    name = "rederivar-em-massa",
    description = {
      "Re-derives many orders from all of their facts in forced mode, as the status page's"
          + " \"Re-derive many orders\" does: creates a job from a filter or a list of order"
          + " ids and runs its dry run (what would change: orders, before and after, effects"
          + " that would be born; nothing is written); with --executar, then runs it.",
      "The job is the page's: whichever applier holds the jobs' lease runs it (this command"
          + " too), paced, and it can be paused, resumed or cancelled from the page. Stopping"
          + " the command (Ctrl-C) leaves it where it is: a running applier goes on with it, or"
          + " --lote follows it again.",
      InstanteIso.EM_UTC,
    },
    sortOptions = false,
    exitCodeList = {
      "0:the dry run (or, with --executar, the run) is done",
      "1:it failed, or the job was paused or cancelled meanwhile; the message says which",
      "2:usage: a wrong option, or a filter refused (no window nor list, no order matches, too"
          + " many)"
    })
final class ComandoDeRederivacaoEmMassa implements Callable<Integer> {

  @Mixin OpcaoDeAjuda ajuda;
  @Mixin Ambiente.DoServico variaveis;
  @Spec CommandSpec spec;

  @Option(
      names = "--operador",
      required = true,
      paramLabel = "NAME",
      description = "Who runs it: the audit records each action under this name.")
  String operador;

  @Option(
      names = "--de",
      paramLabel = "ISO",
      converter = InstanteIso.class,
      description = "Orders with an event received at or after this instant.")
  Instant desde;

  @Option(
      names = "--ate",
      paramLabel = "ISO",
      converter = InstanteIso.class,
      description = "... and before this one.")
  Instant ate;

  @Option(names = "--tipo", paramLabel = "TYPE", description = "... of this type (order.paid).")
  String tipo;

  @Option(
      names = "--veredicto",
      paramLabel = "VERDICT",
      description = "... with this verdict or anomaly kind (falha_de_aplicacao).")
  String veredicto;

  @Option(
      names = "--lista",
      paramLabel = "FILE",
      description = "A file of order ids (one per line, or separated by commas or spaces).")
  Path lista;

  @Option(
      names = "--ritmo",
      paramLabel = "N",
      description =
          "Orders per second, at most aplicador.rederivacao-em-massa.pedidos-por-segundo (its"
              + " default).")
  int ritmo;

  @Option(
      names = "--lote",
      paramLabel = "ID",
      description = "Follow an existing job instead of creating one (with --executar, run it).")
  Long lote;

  @Option(
      names = "--executar",
      description = "After the dry run, confirm and run the job (audited as the page's Confirm).")
  boolean executar;

  private final ServicoSemOuvinte servico;

  ComandoDeRederivacaoEmMassa(ServicoSemOuvinte servico) {
    this.servico = servico;
  }

  /** The filter, checked before the service's context starts: a usage error costs nothing. */
  Filtro filtro() {
    Filtro filtro;
    try {
      filtro =
          new Filtro(
              desde,
              ate,
              tipo,
              veredicto,
              lista == null
                  ? null
                  : Filtro.lerLista(Files.readString(lista, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new ParameterException(
          spec.commandLine(), "cannot read --lista " + lista + ": " + e.getMessage());
    }
    try {
      filtro.validar();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    return filtro;
  }

  @Override
  public Integer call() throws InterruptedException {
    Filtro filtro = lote == null ? filtro() : null;
    PrintWriter saida = spec.commandLine().getOut();
    try (ConfigurableApplicationContext contexto = servico.iniciar()) {
      LotesDeRederivacao lotes = contexto.getBean(LotesDeRederivacao.class);
      ExecutorDeRederivacoes executor = contexto.getBean(ExecutorDeRederivacoes.class);
      long id;
      if (lote == null) {
        long[] criado = new long[1];
        Desfecho desfecho =
            lotes.auditado(
                operador,
                "rederivar_em_massa",
                "new job: " + filtro.emPalavras(),
                () -> {
                  criado[0] = lotes.criar(operador, filtro, ritmo).id();
                  return new Desfecho(
                      Desfecho.FEITO, "job " + criado[0] + " created from the command line", null);
                });
        if (!Desfecho.FEITO.equals(desfecho.resultado())) {
          throw new ParameterException(spec.commandLine(), desfecho.detalhe());
        }
        id = criado[0];
      } else {
        id = lote;
      }
      executor.start();
      try {
        Lote fim = seguir(executor, id, saida);
        if ("simulado".equals(fim.estado()) && executar) {
          Desfecho confirmado =
              lotes.auditado(
                  operador,
                  "confirmar_rederivacao_em_massa",
                  "job " + id,
                  () -> lotes.confirmar(id));
          saida.println(confirmado.resultado() + ": " + confirmado.detalhe());
          executor.acordar();
          fim = seguir(executor, id, saida);
        }
        String esperado = executar ? "concluido" : "simulado";
        if (esperado.equals(fim.estado())) {
          if (!executar) {
            saida.printf(
                "dry run done, nothing written: run it with --lote %d --executar, or from the"
                    + " status page (rederivacao.html?lote=%d)%n",
                id, id);
          }
          return ExitCode.OK;
        }
        spec.commandLine()
            .getErr()
            .printf("job %d is %s, not %s: see the status page%n", id, fim.estado(), esperado);
        return ExitCode.SOFTWARE;
      } finally {
        executor.stop();
      }
    }
  }

  /** The progress line, printed when it changes, about once a second. */
  private static Lote seguir(ExecutorDeRederivacoes executor, long id, PrintWriter saida)
      throws InterruptedException {
    String[] ultima = {""};
    return executor.acompanhar(
        id,
        lote -> {
          String linha = lote.linhaDeProgresso();
          if (!linha.equals(ultima[0])) {
            saida.println(linha);
            saida.flush();
            ultima[0] = linha;
          }
        });
  }
}
