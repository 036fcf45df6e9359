package pedidos.simulador;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import pedidos.dominio.VersaoDoFato;

/**
 * The store's orders API, served from its truth on loopback: {@code GET
 * /orders?updated_since=&limit=[&page_token=]} with {@code Authorization: Bearer <token>},
 * answering {@code {"orders": [...], "next": token|null}} ordered by {@code updated_at}.
 *
 * <p>Pages are keyset pages: the token is the position of the last order served, so an order that
 * changes while a client pages through moves to a later page instead of shifting every page after
 * it. Every view served is recorded: the applier stores each one as a fact.
 */
final class ApiDaLoja implements AutoCloseable {

  static final int LIMITE_PADRAO = 100;
  static final int LIMITE_MAXIMO = 1000;

  private static final Logger log = LoggerFactory.getLogger(ApiDaLoja.class);

  private final HttpServer servidor;
  private final ExecutorService threads;
  private final byte[] autorizacao;
  private final Supplier<Verdade> verdade;
  private final VistasServidas servidas;
  private final Clock relogio;
  private final FormatoDaLoja formato = new FormatoDaLoja();

  private ApiDaLoja(
      HttpServer servidor,
      ExecutorService threads,
      String token,
      Supplier<Verdade> verdade,
      VistasServidas servidas,
      Clock relogio) {
    this.servidor = servidor;
    this.threads = threads;
    this.autorizacao = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    this.verdade = verdade;
    this.servidas = servidas;
    this.relogio = relogio;
  }

  /**
   * @param endereco where to listen: loopback by default; {@code 0.0.0.0} in a container network
   * @param porta 0 for a free port
   * @param verdade read on every request: the truth may be published after the server starts
   */
  static ApiDaLoja iniciar(
      String endereco,
      int porta,
      String token,
      Supplier<Verdade> verdade,
      VistasServidas servidas,
      Clock relogio) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("the API token is required");
    }
    HttpServer servidor;
    try {
      servidor =
          HttpServer.create(
              endereco == null
                  ? new InetSocketAddress(InetAddress.getLoopbackAddress(), porta)
                  : new InetSocketAddress(endereco, porta),
              50);
    } catch (IOException e) {
      throw new UncheckedIOException("could not listen on port " + porta, e);
    }
    ExecutorService threads =
        Executors.newFixedThreadPool(
            4,
            tarefa -> {
              Thread thread = new Thread(tarefa, "api-da-loja");
              thread.setDaemon(true);
              return thread;
            });
    var api = new ApiDaLoja(servidor, threads, token, verdade, servidas, relogio);
    servidor.createContext("/orders", api::atender);
    servidor.setExecutor(threads);
    servidor.start();
    return api;
  }

  URI url() {
    InetSocketAddress endereco = servidor.getAddress();
    return URI.create(
        "http://" + endereco.getAddress().getHostAddress() + ":" + endereco.getPort());
  }

  @Override
  public void close() {
    servidor.stop(0);
    threads.shutdownNow();
  }

  private void atender(HttpExchange troca) {
    try (troca) {
      if (!"/orders".equals(troca.getRequestURI().getPath())) {
        responder(troca, 404, formato.erro("not found"));
      } else if (!"GET".equals(troca.getRequestMethod())) {
        troca.getResponseHeaders().add("Allow", "GET");
        responder(troca, 405, formato.erro("only GET"));
      } else if (!autorizado(troca.getRequestHeaders().getFirst("Authorization"))) {
        troca.getResponseHeaders().add("WWW-Authenticate", "Bearer");
        responder(troca, 401, formato.erro("missing or wrong bearer token"));
      } else {
        listar(troca);
      }
    } catch (IOException e) {
      log.debug("API client went away: {}", e.getMessage());
    } catch (RuntimeException e) {
      log.error("orders API failed on {}", troca.getRequestURI(), e);
    }
  }

  private void listar(HttpExchange troca) throws IOException {
    Map<String, String> consulta = consulta(troca.getRequestURI().getRawQuery());
    Instant desde = VersaoDoFato.lerInstante(consulta.get("updated_since")).orElse(null);
    if (desde == null) {
      responder(troca, 400, formato.erro("updated_since must be an ISO-8601 instant"));
      return;
    }
    Integer limite = limite(consulta.get("limit"));
    if (limite == null) {
      responder(troca, 400, formato.erro("limit must be 1.." + LIMITE_MAXIMO));
      return;
    }
    Posicao depoisDe = null;
    if (consulta.containsKey("page_token")) {
      depoisDe = Posicao.ler(consulta.get("page_token"));
      if (depoisDe == null) {
        responder(troca, 400, formato.erro("unknown page_token"));
        return;
      }
    }
    List<VistaDoPedido> pagina = new ArrayList<>(limite);
    boolean haMais = false;
    for (VistaDoPedido vista : verdade.get().vistas(relogio.instant())) {
      if (vista.instante().isBefore(desde) || (depoisDe != null && !depoisDe.antesDe(vista))) {
        continue;
      }
      if (pagina.size() == limite) {
        haMais = true;
        break;
      }
      pagina.add(vista);
    }
    // Recorded before answering: what the client may have received is never missing here.
    servidas.registrar(desde, pagina);
    String proxima = haMais ? Posicao.de(pagina.get(pagina.size() - 1)).token() : null;
    responder(troca, 200, formato.pagina(pagina, proxima));
  }

  private boolean autorizado(String cabecalho) {
    return cabecalho != null
        && MessageDigest.isEqual(autorizacao, cabecalho.getBytes(StandardCharsets.UTF_8));
  }

  private static void responder(HttpExchange troca, int status, byte[] corpo) throws IOException {
    troca.getResponseHeaders().add("Content-Type", "application/json");
    troca.sendResponseHeaders(status, corpo.length);
    try (OutputStream saida = troca.getResponseBody()) {
      saida.write(corpo);
    }
  }

  private static Map<String, String> consulta(String bruta) {
    Map<String, String> parametros = new HashMap<>();
    if (bruta == null || bruta.isEmpty()) {
      return parametros;
    }
    for (String par : bruta.split("&")) {
      int igual = par.indexOf('=');
      String nome = igual < 0 ? par : par.substring(0, igual);
      String valor = igual < 0 ? "" : par.substring(igual + 1);
      try {
        parametros.putIfAbsent(
            URLDecoder.decode(nome, StandardCharsets.UTF_8),
            URLDecoder.decode(valor, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        // A malformed escape: the parameter is then treated as missing.
      }
    }
    return parametros;
  }

  private static Integer limite(String texto) {
    if (texto == null) {
      return LIMITE_PADRAO;
    }
    try {
      int limite = Integer.parseInt(texto);
      return limite >= 1 && limite <= LIMITE_MAXIMO ? limite : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The opaque page token: where the previous page ended. */
  private record Posicao(Instant instante, String pedidoId) {

    static Posicao de(VistaDoPedido vista) {
      return new Posicao(vista.instante(), vista.pedidoId());
    }

    String token() {
      String texto = instante.toEpochMilli() + ":" + pedidoId;
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(texto.getBytes(StandardCharsets.UTF_8));
    }

    static Posicao ler(String token) {
      try {
        String texto = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        int separador = texto.indexOf(':');
        if (separador < 1) {
          return null;
        }
        return new Posicao(
            Instant.ofEpochMilli(Long.parseLong(texto.substring(0, separador))),
            texto.substring(separador + 1));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }

    boolean antesDe(VistaDoPedido vista) {
      int porInstante = instante.compareTo(vista.instante());
      return porInstante < 0 || (porInstante == 0 && pedidoId.compareTo(vista.pedidoId()) < 0);
    }
  }
}
