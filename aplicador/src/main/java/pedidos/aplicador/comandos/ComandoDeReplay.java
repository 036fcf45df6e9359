package pedidos.aplicador.comandos;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.springframework.context.ConfigurableApplicationContext;
import pedidos.aplicador.replay.OpcoesDeReplay;
import pedidos.aplicador.replay.Replay;
import pedidos.aplicador.replay.ResumoDoReplay;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code replay}: {@link Replay}, in the service's context without its web server, listener or
 * periodic work.
 */
@Command(
    name = "replay",
    description = {
      "Replays partitions of loja.eventos to repair state, after a restore or a fix: stores the"
          + " events the inbox lacks and re-derives each order from all of its facts (forced"
          + " mode, which also applies rows settled as falha_de_aplicacao). It prints its"
          + " progress, and is safe to run any number of times.",
      "Its own consumer, which never commits: the live group is untouched. Records without the"
          + " relay's valid signature are reported and skipped, as the listener refuses them.",
      InstanteIso.EM_UTC,
    },
    sortOptions = false,
    exitCodeList = {
      "0:the range was replayed",
      "1:it failed (the service's context did not start, or Kafka or the database failed);"
          + " once fixed, run it again",
      "2:usage: a wrong option or value"
    })
final class ComandoDeReplay implements Callable<Integer> {

  @Mixin OpcaoDeAjuda ajuda;
  @Mixin Ambiente.DoServico variaveis;
  @Spec CommandSpec spec;

  @Option(
      names = "--topico",
      paramLabel = "TOPIC",
      description = "The topic to replay; by default the one the service reads (aplicador.topico).")
  String topico;

  @Option(
      names = "--particao",
      paramLabel = "N",
      description = "A partition to replay; repeat it for several. By default all of them.")
  List<Integer> particoes = new ArrayList<>();

  @ArgGroup(exclusive = true)
  Inicio inicio;

  @ArgGroup(exclusive = true)
  Fim fim;

  private final ServicoSemOuvinte servico;

  ComandoDeReplay(ServicoSemOuvinte servico) {
    this.servico = servico;
  }

  /** Where each partition's replay starts; neither: at its oldest record. */
  static final class Inicio {

    @Option(
        names = "--de-offset",
        paramLabel = "N",
        description = "The first offset replayed, in each partition.")
    Long offset;

    @Option(
        names = "--de-instante",
        paramLabel = "ISO",
        converter = InstanteIso.class,
        description = "The first record time replayed.")
    Instant instante;
  }

  /** Where it ends; neither: at the end each partition had when the replay started. */
  static final class Fim {

    @Option(
        names = "--ate-offset",
        paramLabel = "N",
        description = "The last offset replayed (inclusive), in each partition.")
    Long offset;

    @Option(
        names = "--ate-instante",
        paramLabel = "ISO",
        converter = InstanteIso.class,
        description = "Records at or after this time are not replayed.")
    Instant instante;
  }

  OpcoesDeReplay opcoes() {
    Inicio de = inicio == null ? new Inicio() : inicio;
    Fim ate = fim == null ? new Fim() : fim;
    return new OpcoesDeReplay(topico, particoes, de.offset, de.instante, ate.offset, ate.instante);
  }

  @Override
  public Integer call() {
    OpcoesDeReplay opcoes = opcoes();
    PrintWriter saida = spec.commandLine().getOut();
    try (ConfigurableApplicationContext contexto = servico.iniciar()) {
      ResumoDoReplay resumo = contexto.getBean(Replay.class).executar(opcoes, saida);
      saida.printf(
          "replay done: read %d, restored %d, applied %d, unapplicable %d,"
              + " unsigned or wrongly signed %d%n",
          resumo.lidos(),
          resumo.restaurados(),
          resumo.aplicados(),
          resumo.inaplicaveis(),
          resumo.naoAutenticados());
      return ExitCode.OK;
    }
  }
}
