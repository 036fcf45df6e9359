package pedidos.aplicador.comandos;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import pedidos.aplicador.apagamento.ApagamentoDeCliente;
import pedidos.aplicador.apagamento.ResumoDoApagamento;
import pedidos.contrato.MascaraDeEmail;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code apagar-cliente}: the erasure of one customer ({@link ApagamentoDeCliente}), as the owner
 * role with the migration step's variables: it rewrites tables no service may write. No Spring
 * context, no Kafka.
 */
@Command(
    name = "apagar-cliente",
    description = {
      "Erases one customer (LGPD): replaces the address by "
          + ApagamentoDeCliente.ANONIMO
          + " wherever the database holds it and says what it changed, table by table. Safe"
          + " while the system runs; a second run finds nothing to erase.",
      "Runs as the schema's owner role, with the migration step's variables: it rewrites tables"
          + " no service may write.",
    },
    exitCodeList = {
      "0:erased, or nothing to erase",
      "1:failed part way; the orders done stay done: run it again",
      "2:usage: --email missing or not an address, or the owner role missing",
      "3:the database is down, unsupported or not migrated; nothing was done"
    })
final class ComandoDeApagamento implements Callable<Integer> {

  @Mixin OpcaoDeAjuda ajuda;
  @Mixin Ambiente.DoDono variaveis;
  @Spec CommandSpec spec;

  @Option(
      names = "--email",
      required = true,
      paramLabel = "ADDRESS",
      converter = EnderecoParaApagar.class,
      description = "The customer's email address; matched whole, ignoring case.")
  String email;

  private final Ambiente ambiente;

  ComandoDeApagamento(Ambiente ambiente) {
    this.ambiente = ambiente;
  }

  @Override
  public Integer call() {
    Credenciais dono = ambiente.doDono(spec);
    PrintWriter saida = spec.commandLine().getOut();
    try (ConexaoDeComando conexao = ConexaoDeComando.abrir(dono)) {
      ResumoDoApagamento resumo;
      try {
        resumo = new ApagamentoDeCliente(conexao.jdbc(), conexao.transacao()).apagar(email);
      } catch (RuntimeException e) {
        // No stack trace: the failure may quote the address being erased; masked here.
        spec.commandLine()
            .getErr()
            .println(
                "apagar-cliente failed part way (the orders done stay done; run it again): "
                    + MascaraDeEmail.mascararNoTexto(e.toString()));
        return ExitCode.SOFTWARE;
      }
      relatar(resumo, saida);
      return ExitCode.OK;
    }
  }

  private void relatar(ResumoDoApagamento resumo, PrintWriter saida) {
    String mascarado = MascaraDeEmail.mascarar(email);
    if (resumo.nada()) {
      saida.printf(
          "nothing to erase: no row holds %s (never stored, or erased already)%n", mascarado);
      return;
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
  }

  /** An address to erase, checked before anything connects: never the anonymous one. */
  static final class EnderecoParaApagar implements ITypeConverter<String> {

    @Override
    public String convert(String valor) {
      try {
        return ApagamentoDeCliente.validar(valor);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
