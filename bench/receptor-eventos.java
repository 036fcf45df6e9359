import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Pre-signed, unique events for the receptor benchmark: one line per event, "signature TAB body".
 *
 * <p>java bench/receptor-eventos.java FILE COUNT PREFIX SECRET
 */
public class GeradorDeEventos {
  public static void main(String[] args) throws Exception {
    Path arquivo = Path.of(args[0]);
    int quantidade = Integer.parseInt(args[1]);
    String prefixo = args[2];
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(args[3].getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    try (BufferedWriter saida = Files.newBufferedWriter(arquivo, StandardCharsets.UTF_8)) {
      for (int i = 0; i < quantidade; i++) {
        String id = prefixo + "_" + i;
        String corpo = corpo(id, "ord_" + prefixo + "_" + (i / 4));
        saida.write(hex(mac.doFinal(corpo.getBytes(StandardCharsets.UTF_8))));
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

  static String hex(byte[] bytes) {
    StringBuilder hex = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return hex.toString();
  }
}
