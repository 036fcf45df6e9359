package pedidos.aplicador.comandos;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.concurrent.Callable;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.retencao.ResumoDaRetencao;
import pedidos.aplicador.retencao.Retencao;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code reter}: one retention pass now ({@link Retencao}), as the applier's role, with the
 * service's {@code aplicador.retencao.*} settings from the environment; for an operator who
 * shortened a period, and for the benchmark. No Spring context, no Kafka.
 */
@Command(
    name = "reter",
    description = {
      "Runs one pass of the retention job now, as every applier runs it hourly, and prints what it"
          + " changed. For an operator who shortened a period, and for the benchmark.",
      "Runs as the applier's role, with the service's retention settings from the environment.",
    },
    footerHeading = Ambiente.TITULO_DO_AMBIENTE,
    footer = {
      Ambiente.URL_DO_APLICADOR,
      Ambiente.USUARIO_DO_APLICADOR,
      Ambiente.SENHA_DO_APLICADOR,
      "  APLICADOR_RETENCAO_*         the service's (aplicador.retencao.*), such as",
      "                               APLICADOR_RETENCAO_OUTBOX=30d (write the unit)"
    },
    exitCodeListHeading = Ambiente.TITULO_DOS_CODIGOS,
    exitCodeList = {
      "0:the pass ran to the end",
      "1:a batch failed; the batches done stay done: run it again",
      "2:usage: the database missing, or a retention setting wrong",
      "3:the database is down, unsupported or not migrated; nothing was done"
    })
final class ComandoDeRetencao implements Callable<Integer> {

  private static final String RETENCAO = "aplicador.retencao";

  @Mixin OpcaoDeAjuda ajuda;
  @Spec CommandSpec spec;

  private final Ambiente ambiente;

  ComandoDeRetencao(Ambiente ambiente) {
    this.ambiente = ambiente;
  }

  @Override
  public Integer call() {
    Credenciais aplicador = ambiente.doAplicador(spec);
    var politica = ambiente.vincular(spec, RETENCAO, AplicadorProperties.Retencao.class);
    try (ConexaoDeComando conexao = ConexaoDeComando.abrir(aplicador)) {
      ResumoDaRetencao resumo =
          new Retencao(
                  conexao.jdbc(),
                  conexao.transacao(),
                  politica,
                  new MetricasDoAplicador(new SimpleMeterRegistry()),
                  Clock.systemUTC())
              .executar();
      spec.commandLine()
          .getOut()
          .printf(
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
      return ExitCode.OK;
    }
  }
}
