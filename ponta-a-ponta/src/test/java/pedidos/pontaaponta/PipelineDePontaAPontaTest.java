package pedidos.pontaaponta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import pedidos.infra.KafkaLocal;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ServicoEmProcesso;
import pedidos.infra.UsuarioDoKafka;
import pedidos.simulador.Relatorio;
import pedidos.simulador.Simulacao;

/**
 * Signed webhooks through the receptor, the relay, Kafka and the applier, as separate processes,
 * checked by the provider simulator; then the same with a relay, the applier and Kafka failing in
 * the middle of the stream.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineDePontaAPontaTest {

  private static final String TOKEN = "token-ponta-a-ponta";
  private static final Duration ESPERA = Duration.ofMinutes(3);

  private final int portaDaApi = SistemaEmProcessos.portaLivre();
  private final int portaDoKafka = SistemaEmProcessos.portaLivre();
  private PostgresLocal postgres;
  private KafkaLocal kafka;
  private SistemaEmProcessos sistema;

  @BeforeAll
  void iniciar() {
    postgres = PostgresLocal.builder().fsync(false).iniciar();
    kafka = SistemaEmProcessos.kafkaNaPorta(portaDoKafka);
    sistema =
        new SistemaEmProcessos(
                postgres,
                kafka.bootstrapServers(),
                URI.create("http://127.0.0.1:" + portaDaApi),
                TOKEN)
            .iniciar();
  }

  @AfterAll
  void parar() {
    if (sistema != null) {
      sistema.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  @Order(1)
  @Tag("todas-as-versoes-do-postgres")
  void centenasDePedidosEmbaralhadosEDuplicadosChegamAoEstadoCanonico() throws Exception {
    try (Simulacao simulacao = simulacao("todos", 1, 300, 300)) {
      simulacao.iniciarApi();
      Relatorio relatorio = simulacao.executar();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(2)
  void relayMortoNoMeioDoFluxoNaoPerdeNadaEAReservaAssume() throws Exception {
    ServicoEmProcesso ativo =
        SistemaEmProcessos.papel(sistema.relay).orElse("").equals("ATIVO")
            ? sistema.relay
            : sistema.reserva;
    ServicoEmProcesso outro = ativo == sistema.relay ? sistema.reserva : sistema.relay;
    try (Simulacao simulacao = simulacao("relay", 2, 200, 80)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("relay") > 150);

      ativo.matar();

      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> SistemaEmProcessos.papel(outro).orElse("").equals("ATIVO"));
      ativo.iniciar().aguardarSaude(ESPERA);
      assertThat(SistemaEmProcessos.papel(ativo)).contains("RESERVA");
      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(3)
  void aplicadorMortoNoMeioDoFluxoNaoPerdeNada() throws Exception {
    try (Simulacao simulacao = simulacao("aplicador", 3, 200, 80)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("aplicador") > 150);

      sistema.aplicador.matar();
      sistema.aplicador.iniciar().aguardarSaude(ESPERA);

      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(4)
  void kafkaForaDoArAVarreduraAplicaEDepoisTudoEPublicado() throws Exception {
    kafka.close();
    try (Simulacao simulacao = simulacao("semkafka", 4, 100, 100)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("semkafka") > 100);
      await()
          .atMost(ESPERA)
          .alias("the sweep applies from the inbox while Kafka is down")
          .until(() -> pedidosAplicados("semkafka") > 50);

      kafka = SistemaEmProcessos.kafkaNaPorta(portaDoKafka);

      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  private static void aprovar(Relatorio relatorio) {
    System.out.println(relatorio.texto());
    assertThat(relatorio.ok()).as(relatorio.texto()).isTrue();
    assertThat(relatorio.pedidos()).isPositive();
    assertThat(relatorio.divergencias()).isEmpty();
  }

  private Simulacao simulacao(String prefixo, long semente, int pedidos, double taxa) {
    return Simulacao.builder()
        .receptor(sistema.urlDoReceptor())
        .segredo(SistemaEmProcessos.SEGREDO)
        .banco(postgres.jdbcUrl(), postgres.usuario(), postgres.senha())
        .kafka("localhost:" + portaDoKafka, UsuarioDoKafka.ADMINISTRADOR.propriedadesDoCliente())
        .portaDaApi(portaDaApi)
        .tokenDaApi(TOKEN)
        .prefixo(prefixo)
        .semente(semente)
        .pedidos(pedidos)
        .taxa(taxa)
        .perda(0.05)
        .duplicacao(0.3)
        .espera(ESPERA)
        .construir();
  }

  private static CompletableFuture<Relatorio> emSegundoPlano(Simulacao simulacao) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return simulacao.executar();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }

  private long eventosGuardados(String prefixo) throws SQLException {
    return contar("SELECT count(*) FROM webhook_eventos WHERE recurso_id LIKE ?", prefixo);
  }

  private long pedidosAplicados(String prefixo) throws SQLException {
    return contar("SELECT count(*) FROM pedidos WHERE id LIKE ?", prefixo);
  }

  private long contar(String sql, String prefixo) throws SQLException {
    try (Connection conexao =
            DriverManager.getConnection(postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
        PreparedStatement consulta = conexao.prepareStatement(sql)) {
      consulta.setString(1, "ord_" + prefixo + "_%");
      try (ResultSet linhas = consulta.executeQuery()) {
        linhas.next();
        return linhas.getLong(1);
      }
    }
  }
}
