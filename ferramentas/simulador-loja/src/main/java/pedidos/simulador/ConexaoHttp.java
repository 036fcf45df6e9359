package pedidos.simulador;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import pedidos.contrato.AssinaturaDeWebhook;

/**
 * One keep-alive HTTP/1.1 connection, blocking, for the load generators (the simulated store and
 * the benchmark's): it writes a request built beforehand and reads the answer's status, discarding
 * headers and body. On a machine whose two cores also run everything under test, the JDK's
 * HttpClient cost about a third of a core at 300 requests/s; this costs a few percent.
 */
public final class ConexaoHttp implements AutoCloseable {

  private final InetSocketAddress endereco;
  private final int timeoutMillis;
  private Socket socket;
  private InputStream entrada;
  private OutputStream saida;
  private final byte[] descarte = new byte[8192];

  /**
   * @param timeout bounds the connect and each read: no answer by then is a {@link
   *     SocketTimeoutException}, and the connection is closed
   */
  public ConexaoHttp(InetSocketAddress endereco, Duration timeout) {
    this.endereco = endereco;
    this.timeoutMillis = Math.toIntExact(Math.max(1, timeout.toMillis()));
  }

  /**
   * Sends the request and returns the answer's status. A connection the server closed while idle
   * (keep-alive timeout, request limit) is reopened and the request sent once more, as HTTP clients
   * do for requests that are safe to repeat; a webhook is (its id deduplicates it). A request that
   * timed out is not: the server may still be working on it, and the caller decides.
   */
  public int enviar(byte[] requisicao) throws IOException {
    boolean reutilizada = socket != null;
    try {
      return tentar(requisicao);
    } catch (IOException e) {
      fechar();
      if (!reutilizada || e instanceof SocketTimeoutException) {
        throw e;
      }
      return tentar(requisicao);
    }
  }

  private int tentar(byte[] requisicao) throws IOException {
    if (socket == null) {
      socket = new Socket();
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(timeoutMillis);
      socket.connect(endereco, timeoutMillis);
      entrada = new BufferedInputStream(socket.getInputStream(), 16384);
      saida = socket.getOutputStream();
    }
    saida.write(requisicao);
    saida.flush();
    String linhaDeStatus = linha();
    if (!linhaDeStatus.startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP answer: " + linhaDeStatus);
    }
    int status = Integer.parseInt(linhaDeStatus.substring(9, 12));
    long tamanho = -1;
    boolean emPedacos = false;
    boolean fechar = false;
    for (String cabecalho = linha(); !cabecalho.isEmpty(); cabecalho = linha()) {
      String minusculo = cabecalho.toLowerCase(Locale.ROOT);
      if (minusculo.startsWith("content-length:")) {
        tamanho = Long.parseLong(minusculo.substring(15).trim());
      } else if (minusculo.startsWith("transfer-encoding:") && minusculo.contains("chunked")) {
        emPedacos = true;
      } else if (minusculo.startsWith("connection:") && minusculo.contains("close")) {
        fechar = true;
      }
    }
    if (emPedacos) {
      for (long pedaco = Long.parseLong(semExtensao(linha()), 16);
          pedaco > 0;
          pedaco = Long.parseLong(semExtensao(linha()), 16)) {
        pular(pedaco);
        linha();
      }
      while (!linha().isEmpty()) {
        // trailers
      }
    } else if (tamanho > 0) {
      pular(tamanho);
    } else if (tamanho < 0) {
      fechar = true; // body until the connection closes: read it all
      while (entrada.read(descarte) >= 0) {
        // discard
      }
    }
    if (fechar) {
      fechar();
    }
    return status;
  }

  private static String semExtensao(String linha) {
    int i = linha.indexOf(';');
    return (i < 0 ? linha : linha.substring(0, i)).trim();
  }

  private void pular(long bytes) throws IOException {
    while (bytes > 0) {
      int lidos = entrada.read(descarte, 0, (int) Math.min(descarte.length, bytes));
      if (lidos < 0) {
        throw new EOFException("answer cut short");
      }
      bytes -= lidos;
    }
  }

  private String linha() throws IOException {
    StringBuilder linha = new StringBuilder(64);
    for (int c = entrada.read(); c != '\n'; c = entrada.read()) {
      if (c < 0) {
        throw new EOFException("connection closed");
      }
      if (c != '\r') {
        linha.append((char) c);
      }
    }
    return linha.toString();
  }

  /** A signed webhook's POST, whole, to be sent as many times as needed. */
  public static byte[] requisicao(
      String host, int porta, String caminho, String assinatura, byte[] corpo) {
    byte[] cabecalhos =
        ("POST "
                + caminho
                + " HTTP/1.1\r\nHost: "
                + host
                + ":"
                + porta
                + "\r\nContent-Type: application/json\r\n"
                + AssinaturaDeWebhook.CABECALHO_DA_LOJA
                + ": "
                + assinatura
                + "\r\nContent-Length: "
                + corpo.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] tudo = new byte[cabecalhos.length + corpo.length];
    System.arraycopy(cabecalhos, 0, tudo, 0, cabecalhos.length);
    System.arraycopy(corpo, 0, tudo, cabecalhos.length, corpo.length);
    return tudo;
  }

  private void fechar() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    socket = null;
    entrada = null;
    saida = null;
  }

  @Override
  public void close() {
    fechar();
  }
}
