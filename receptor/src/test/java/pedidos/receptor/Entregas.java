package pedidos.receptor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import pedidos.contrato.AssinaturaDeWebhook;

/** Deliveries as the provider makes them: a JSON body signed with HMAC-SHA256, over real HTTP. */
public final class Entregas {

  public static final String SEGREDO = "segredo-atual-de-teste-com-mais-de-32-bytes";
  public static final String SEGREDO_ANTIGO = "segredo-antigo-de-teste-com-mais-de-32-bytes";

  /** What the test contexts bind to {@code receptor.segredos}. */
  public static final String SEGREDOS = SEGREDO + "," + SEGREDO_ANTIGO;

  private final HttpClient http;
  private final int porta;
  private final URI endpoint;

  public Entregas(int porta) {
    this.porta = porta;
    this.endpoint = URI.create("http://127.0.0.1:" + porta + "/webhooks/loja");
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  public static String evento(String id, String pedido, String tipo) {
    return """
        {"id": "%s", "type": "%s", "occurred_at": "2026-11-29T12:00:00.123Z", \
        "data": {"id": "%s", "status": "paid", "total_cents": 1990, \
        "customer_email": "cliente@example.com"}}"""
        .formatted(id, tipo, pedido);
  }

  public static String evento(String id) {
    return evento(id, "ord_" + id, "order.paid");
  }

  /** Lowercase hex HMAC-SHA256, written out here rather than taken from the code under test. */
  public static String assinar(byte[] corpo, String segredo) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(segredo.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      StringBuilder hex = new StringBuilder();
      for (byte b : mac.doFinal(corpo)) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String assinar(byte[] corpo) {
    return assinar(corpo, SEGREDO);
  }

  /**
   * Signs as a Standard Webhooks sender does: {@code v1,} base64 of HMAC(id.timestamp.body), under
   * the key a {@code whsec_} secret (or any other) stands for in the contract.
   */
  public static String assinarStandard(String segredo, String id, String instante, byte[] corpo) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(AssinaturaDeWebhook.chave(segredo), "HmacSHA256"));
      mac.update((id + "." + instante + ".").getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(corpo));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public HttpRequest.Builder requisicao() {
    return HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30));
  }

  public HttpRequest assinada(byte[] corpo) {
    return requisicao()
        .header("Content-Type", "application/json")
        .header("x-loja-signature", assinar(corpo))
        .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
        .build();
  }

  public HttpResponse<String> enviar(String json) {
    return enviar(json.getBytes(StandardCharsets.UTF_8));
  }

  public HttpResponse<String> enviar(byte[] corpo) {
    return enviar(assinada(corpo));
  }

  public HttpResponse<String> enviar(HttpRequest requisicao) {
    try {
      return http.send(requisicao, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public CompletableFuture<HttpResponse<String>> enviarAssincrono(byte[] corpo) {
    return http.sendAsync(assinada(corpo), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Writes the request head, lets the caller write (part of) a body, and returns what the server
   * answered first: its status line and headers, read as soon as they arrive, even if the body was
   * never finished.
   */
  public String bruto(String cabecalhos, CorpoBruto corpo) {
    try (Socket socket = new Socket("127.0.0.1", porta)) {
      socket.setSoTimeout(10_000);
      OutputStream saida = socket.getOutputStream();
      saida.write(cabecalhos.getBytes(StandardCharsets.US_ASCII));
      saida.flush();
      try {
        corpo.escrever(saida);
        saida.flush();
      } catch (IOException e) {
        // The server may answer and close while the body is still being written.
      }
      return lerCabecalho(socket.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String lerCabecalho(InputStream entrada) throws IOException {
    ByteArrayOutputStream lido = new ByteArrayOutputStream();
    int b;
    while ((b = entrada.read()) != -1) {
      lido.write(b);
      String ate = lido.toString(StandardCharsets.ISO_8859_1);
      if (ate.endsWith("\r\n\r\n")) {
        return ate;
      }
    }
    return lido.toString(StandardCharsets.ISO_8859_1);
  }

  @FunctionalInterface
  public interface CorpoBruto {
    void escrever(OutputStream saida) throws IOException;
  }
}
