package pedidos.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.infra.InfraLocal;
import pedidos.infra.SistemaEmProcessos;
import pedidos.infra.SistemaEmProcessos.Servico;
import pedidos.infra.UsuarioDoKafka;
import pedidos.simulador.Relatorio;
import pedidos.simulador.Simulacao;

/**
 * The whole system on one machine: embedded PostgreSQL (logical WAL) and a KRaft broker, then the
 * relay, the receptor and the applier, each its own process as in production, their logs prefixed
 * and together. Ctrl-C stops the services first, then Kafka, then PostgreSQL.
 */
public final class SistemaLocal {

  private final OpcoesLocais opcoes;
  // The operators' credentials for the status page and the actuator. No default password
  // anywhere: unless PEDIDOS_OPS_SENHA is set, each run makes one and prints it.
  private final String usuarioDeOps = variavel("PEDIDOS_OPS_USUARIO", "ops");
  private final String senhaDeOps =
      variavel("PEDIDOS_OPS_SENHA", HexFormat.of().formatHex(new SecureRandom().generateSeed(16)));
  private InfraLocal infra;
  private SistemaEmProcessos sistema;
  private Simulacao simulacao;

  private SistemaLocal(OpcoesLocais opcoes) {
    this.opcoes = opcoes;
  }

  public static void main(String[] args) throws Exception {
    if (List.of(args).contains("--help")) {
      System.out.println(OpcoesLocais.USO);
      return;
    }
    OpcoesLocais opcoes;
    try {
      opcoes = OpcoesLocais.ler(List.of(args), System::getenv);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    var sistema = new SistemaLocal(opcoes);
    Runtime.getRuntime().addShutdownHook(new Thread(sistema::parar, "parar-sistema-local"));
    try {
      sistema.iniciar();
    } catch (IllegalStateException e) {
      System.err.println("\ncould not start: " + e.getMessage());
      System.exit(1);
    }
    if (opcoes.demo()) {
      int status = sistema.demonstrar();
      System.out.println(
          "\nThe system keeps running; send more webhooks, or press Ctrl-C to stop it.");
      if (status != 0) {
        System.out.println("(the demo found mismatches: see the report above)");
      }
    }
    new CountDownLatch(1).await(); // until Ctrl-C
  }

  private void iniciar() throws IOException {
    Files.createDirectories(opcoes.diretorio().resolve("logs"));
    for (int porta :
        List.of(opcoes.portaDoReceptor(), opcoes.portaDoAplicador(), opcoes.portaDoPublicador())) {
      exigirLivre(porta, "a service port");
      exigirLivre(porta + 1000, "a management port");
    }
    System.out.println("Starting PostgreSQL and Kafka...");
    infra =
        InfraLocal.builder()
            .portaDoPostgres(opcoes.portaDoPostgres())
            .portaDoKafka(opcoes.portaDoKafka())
            .diretorioDoPostgres(opcoes.diretorio().resolve("postgres"))
            .comecarLimpo(opcoes.limpo())
            .iniciar();
    URI apiDaLoja = null;
    if (opcoes.demo()) {
      exigirLivre(opcoes.portaDaApiDaLoja(), "the simulated orders API port (LOJA_API_PORT)");
      simulacao =
          Simulacao.builder()
              .receptor(URI.create("http://127.0.0.1:" + opcoes.portaDoReceptor()))
              .segredo(opcoes.segredo())
              .banco(
                  infra.postgres().jdbcUrl(), infra.postgres().usuario(), infra.postgres().senha())
              .kafka(
                  infra.kafka().bootstrapServers(),
                  UsuarioDoKafka.ADMINISTRADOR.propriedadesDoCliente())
              .portaDaApi(opcoes.portaDaApiDaLoja())
              .pedidos(opcoes.pedidosDoDemo())
              .taxa(100)
              .perda(0.05)
              .duplicacao(0.3)
              .espera(Duration.ofMinutes(3))
              .progresso(progresso -> System.out.println("[simulador] " + progresso.linha()))
              .construir();
      apiDaLoja = simulacao.iniciarApi();
    }
    var construtor =
        SistemaEmProcessos.builder(infra.postgres(), infra.kafka().bootstrapServers())
            .portas(Servico.RELAY, opcoes.portaDoPublicador(), opcoes.portaDoPublicador() + 1000)
            .portas(Servico.RECEPTOR, opcoes.portaDoReceptor(), opcoes.portaDoReceptor() + 1000)
            .portas(Servico.APLICADOR, opcoes.portaDoAplicador(), opcoes.portaDoAplicador() + 1000)
            .segredoDoWebhook(opcoes.segredo())
            .assinaturaDoKafka(opcoes.assinaturaDoKafka())
            .ops(usuarioDeOps, senhaDeOps)
            .diretorioDeLogs(opcoes.diretorio().resolve("logs"))
            .saida(System.out);
    if (apiDaLoja != null) {
      construtor
          .ambiente(Servico.APLICADOR, "LOJA_API_URL", apiDaLoja.toString())
          .ambiente(Servico.APLICADOR, "LOJA_API_TOKEN", simulacao.tokenDaApi())
          .ambiente(Servico.APLICADOR, "LOJA_RECONCILIACAO_INTERVALO", "10s");
    }
    System.out.println("Migrating, then starting the relay, the receptor and the aplicador...");
    sistema = construtor.construir();
    sistema.iniciar();
    imprimirOndeEstaTudo();
  }

  private int demonstrar() throws InterruptedException {
    System.out.println("\nRunning the provider simulator against the system...");
    Relatorio relatorio = simulacao.executar();
    System.out.println(relatorio.texto());
    return relatorio.ok() ? 0 : 1;
  }

  private static String variavel(String nome, String padrao) {
    String valor = System.getenv(nome);
    return valor == null || valor.isBlank() ? padrao : valor;
  }

  private synchronized void parar() {
    System.out.println("\nStopping...");
    // Services first (the relay holds a replication connection), then Kafka, then PostgreSQL.
    if (sistema != null) {
      sistema.close();
      sistema = null;
    }
    if (simulacao != null) {
      simulacao.close();
    }
    if (infra != null) {
      infra.close();
      infra = null;
    }
  }

  private void imprimirOndeEstaTudo() {
    String corpo =
        "{\"id\":\"evt_demo_1\",\"type\":\"order.paid\",\"occurred_at\":\"2026-11-29T12:00:00.123Z\","
            + "\"data\":{\"id\":\"ord_demo_1\",\"status\":\"paid\",\"total_cents\":1990,"
            + "\"customer_email\":\"cliente@example.com\"}}";
    String webhook = "http://127.0.0.1:" + opcoes.portaDoReceptor() + "/webhooks/loja";
    System.out.printf(
        """

        The system is up.
          webhook URL      %s
          secret in use    %s   (LOJA_WEBHOOK_SECRET)
          PostgreSQL       %s   (user %s; data kept in %s)
          Kafka bootstrap  %s   (SASL/SCRAM-SHA-512; operator user %s, password %s)
          health           http://127.0.0.1:%d/actuator/health (receptor), :%d (aplicador), :%d (relay)
          status page      http://127.0.0.1:%d/status.html
          ops login        %s / %s   (PEDIDOS_OPS_USUARIO / PEDIDOS_OPS_SENHA: the status page,
                           health details and /actuator/prometheus of every service)
          logs             %s

        Send a signed webhook:
          curl -i -X POST %s \\
            -H 'Content-Type: application/json' \\
            -H '%s: %s' \\
            --data-raw '%s'

        Then look at the order:
          psql %s -c "select * from pedidos where id = 'ord_demo_1'"

        Ctrl-C stops everything.
        """,
        webhook,
        opcoes.segredo(),
        infra.postgres().jdbcUrl(),
        infra.postgres().usuario(),
        opcoes.diretorio().resolve("postgres").toAbsolutePath(),
        infra.kafka().bootstrapServers(),
        UsuarioDoKafka.ADMINISTRADOR.nome(),
        UsuarioDoKafka.ADMINISTRADOR.senhaLocal(),
        opcoes.portaDoReceptor() + 1000,
        opcoes.portaDoAplicador() + 1000,
        opcoes.portaDoPublicador() + 1000,
        opcoes.portaDoAplicador(),
        usuarioDeOps,
        senhaDeOps,
        opcoes.diretorio().resolve("logs").toAbsolutePath(),
        webhook,
        AssinaturaDeWebhook.CABECALHO_DA_LOJA,
        assinar(opcoes.segredo(), corpo),
        corpo,
        "postgresql://"
            + infra.postgres().usuario()
            + "@localhost:"
            + infra.postgres().porta()
            + "/"
            + infra.postgres().banco());
  }

  static String assinar(String segredo, String corpo) {
    return AssinaturaDeWebhook.doSegredo(segredo).daLoja(corpo.getBytes(StandardCharsets.UTF_8));
  }

  private static void exigirLivre(int porta, String qual) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress("127.0.0.1", porta));
    } catch (IOException e) {
      throw new IllegalStateException(
          "port " + porta + " (" + qual + ") is already in use; set another one (see --help)");
    }
  }
}
