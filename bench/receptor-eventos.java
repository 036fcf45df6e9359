import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import pedidos.contrato.AssinaturaDeWebhook;

/**
 * Pre-signed, unique events for the receptor benchmark: one line per event, "signature TAB body".
 * Signed as the store signs, by the contract's own class (the contrato module's jar is on the
 * class path), so the benchmark cannot drift from what the receptor verifies.
 *
 * <p>java -cp contrato/target/contrato-0.1.0-SNAPSHOT.jar bench/receptor-eventos.java FILE COUNT
 * PREFIX SECRET
 */
public class GeradorDeEventos {
  public static void main(String[] args) throws Exception {
    Path arquivo = Path.of(args[0]);
    int quantidade = Integer.parseInt(args[1]);
    String prefixo = args[2];
    AssinaturaDeWebhook assinatura = AssinaturaDeWebhook.doSegredo(args[3]);
    try (BufferedWriter saida = Files.newBufferedWriter(arquivo, StandardCharsets.UTF_8)) {
      for (int i = 0; i < quantidade; i++) {
        String id = prefixo + "_" + i;
        String corpo = corpo(id, "ord_" + prefixo + "_" + (i / 4));
        saida.write(assinatura.daLoja(corpo.getBytes(StandardCharsets.UTF_8)));
        saida.write('\t');
        saida.write(corpo);
        saida.write('\n');
      }
    }
  }

  /** The shape the provider sends; pgbench's script builds the same text. */
  static String corpo(String id, String pedido) {
    return "{\"id\": \"" + id + "\", \"type\": \"order.paid\", "
        + "\"occurred_at\": \"2026-11-29T12:00:00.123Z\", \"sequence\": 7, "
        + "\"data\": {\"id\": \"" + pedido + "\", \"status\": \"paid\", "
        + "\"total_cents\": 1990, \"customer_email\": \"cliente@example.com\"}}";
  }
}
