package pedidos.implantacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.HostConfig;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.Container.ExecResult;
import pedidos.infra.AclsDoKafka;
import pedidos.simulador.Relatorio;
import pedidos.simulador.Simulacao;
import pedidos.testes.Consultas;

/**
 * The deployment as shipped: docker-compose.yml built and started (Testcontainers, local
 * docker-compose), with stand-ins only for the two images no registry can give here. First what
 * issue 13 built and never ran in containers (roles, migration step, SASL broker with ACLs,
 * read-only filesystems); then the provider simulator through the published webhook port, checked
 * against PostgreSQL and separacao.efeitos; then the aplicador's and the active relay's JVMs killed
 * mid-stream, brought back by the restart policy and the standby with nothing lost; last, Kafka and
 * PostgreSQL recreated ({@code up --force-recreate}) with their topics, offsets and data intact;
 * and the simulator's image, behind its profile, built and run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(MotorDocker.class)
class ImplantacaoComComposeTest {

  private static final Duration ESPERA = Duration.ofMinutes(4);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private PilhaDoCompose pilha;
  private long inicio;

  @BeforeAll
  void subir() {
    // Conditions here ask the engine, PostgreSQL or a container: not ten times a second.
    Awaitility.setDefaultPollInterval(Duration.ofSeconds(1));
    // Before any name is looked up in this JVM (see NomesDoCompose).
    NomesDoCompose.iniciar();
    String enderecoDoHost = MotorDocker.exigir();
    inicio = System.nanoTime();
    pilha =
        new PilhaDoCompose(
            Path.of(System.getProperty("raiz.do.projeto", "../..")).toAbsolutePath().normalize(),
            enderecoDoHost);
    try {
      pilha.iniciar();
    } catch (RuntimeException e) {
      pilha.close();
      throw e;
    }
    medir("built, started and healthy");
  }

  @AfterAll
  void descer() {
    Awaitility.reset();
    if (pilha != null) {
      pilha.close();
      medir("in all, with docker-compose down -v");
    }
  }

  /**
   * Issue 13's controls, in containers: the one-shot steps ran and ended well, every service logs
   * in to PostgreSQL with its own role and the receptor's cannot read orders, the broker refuses
   * clients without credentials or with a wrong password and enforces the ACLs, the services run as
   * a non-root user on a read-only root filesystem with a restart policy and the AOT cache their
   * image trained, the status page is published on loopback behind the operators' login, and one
   * relay is active, one standing by.
   */
  @Test
  @Order(1)
  void aPilhaSobeComOsControlesDeSegurancaEmVigor() throws Exception {
    assertThat(saidaDe("migracao")).as("the migration step's exit code").isZero();
    assertThat(saidaDe("kafka-init")).as("kafka-init's exit code").isZero();

    for (String servico :
        List.of(
            "postgres",
            "kafka",
            "receptor",
            "aplicador",
            "publicador-outbox",
            "publicador-outbox-reserva")) {
      HostConfig config = pilha.container(servico).getHostConfig();
      assertThat(config.getRestartPolicy().getName()).as(servico).isEqualTo("unless-stopped");
      assertThat(config.getSecurityOpts()).as(servico).contains("no-new-privileges:true");
    }
    for (String servico : PilhaDoCompose.SERVICOS) {
      assertThat(pilha.container(servico).getHostConfig().getReadonlyRootfs())
          .as(servico + " read-only root filesystem")
          .isTrue();
      assertThat(pilha.executar(servico, "id", "-u").getStdout().trim()).isEqualTo("10001");
      ExecResult escrita = pilha.executar(servico, "touch", "/app/escrita");
      assertThat(escrita.getExitCode()).as(servico + " writing /app").isNotZero();
      assertThat(escrita.getStderr()).contains("Read-only file system");
      assertThat(pilha.executar(servico, "touch", "/tmp/escrita").getExitCode())
          .as(servico + " writing its scratch /tmp")
          .isZero();
      // The JVM (PID 1) runs with the AOT cache the image build trained: it maps the file. A
      // cache the JVM refuses (other jars or options than the training run's) is not mapped.
      assertThat(pilha.executar(servico, "cat", "/proc/1/maps").getStdout())
          .as(servico + " maps its image's AOT cache")
          .contains("/app/app.aot");
    }

    Consultas dono = comoDono();
    assertThat(dono.textos("SELECT DISTINCT installed_by FROM flyway_schema_history"))
        .as("who ran the migrations")
        .containsExactly("pedidos_dono");
    // Another role's session shows its user and database to the owner, not its other columns.
    assertThat(
            dono.textos("SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = 'pedidos'"))
        .as("roles connected to the database")
        .contains("pedidos_receptor", "pedidos_aplicador", "pedidos_publicador")
        .doesNotContain("postgres");
    assertThat(dono.textos("SELECT usename FROM pg_stat_replication"))
        .as("the active relay streams as its own role")
        .containsExactly("pedidos_publicador");
    Consultas receptor =
        Consultas.de(
            pilha.jdbcUrl(), "pedidos_receptor", pilha.ambiente.get("PEDIDOS_RECEPTOR_PASSWORD"));
    assertThatThrownBy(() -> receptor.textos("SELECT id FROM pedidos LIMIT 1"))
        .as("the receptor's role reads no orders")
        .rootCause()
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("permission denied");

    assertThat(
            pilha
                .executar("kafka", "test", "-s", "/var/lib/kafka/data/meta.properties")
                .getExitCode())
        .as("the broker's log directory is the volume")
        .isZero();
    assertThatThrownBy(() -> topicos(Map.of()))
        .as("a client without credentials")
        .isInstanceOf(ExecutionException.class);
    assertThatThrownBy(
            () -> topicos(PilhaDoCompose.clienteDoKafka("pedidos-admin", "senha-errada")))
        .as("a wrong password")
        .hasCauseInstanceOf(SaslAuthenticationException.class);
    try (KafkaProducer<String, String> separacao =
        produtor(PilhaDoCompose.clienteDoKafka("pedidos-separacao", pilha.senhaDaSeparacao))) {
      assertThatThrownBy(
              () ->
                  separacao
                      .send(new ProducerRecord<>("loja.eventos", "k", "{}"))
                      .get(30, TimeUnit.SECONDS))
          .as("the picking system writing the applier's topic")
          .hasCauseInstanceOf(TopicAuthorizationException.class);
    }
    try (Admin admin = admin(pilha.administradorDoKafka())) {
      FotoDoKafka kafka = FotoDoKafka.tirar(admin);
      assertThat(kafka.usuarios())
          .contains(
              "pedidos-admin", "pedidos-publicador", "pedidos-aplicador", "pedidos-separacao");
      assertThat(new HashSet<>(admin.describeAcls(AclBindingFilter.ANY).values().get()))
          .as("kafka-init's ACLs, the same as the embedded broker's (AclsDoKafka)")
          .isEqualTo(new HashSet<>(AclsDoKafka.todas()));
      assertThat(kafka.particoes()).containsKeys("loja.eventos", "separacao.efeitos");
    }

    HttpResponse<String> anonimo = painel(null);
    assertThat(anonimo.statusCode()).as("the status page, anonymous").isEqualTo(401);
    HttpResponse<String> operador = painel(pilha.usuarioDeOps() + ":" + pilha.senhaDeOps);
    assertThat(operador.statusCode()).as("the status page, operator").isEqualTo(200);
    assertThat(operador.body()).contains("caixaDeEntrada");

    assertThat(papeis()).as("the relays' roles").containsExactlyInAnyOrder("ATIVO", "RESERVA");
    medir("security checks");
  }

  /**
   * Hundreds of orders, shuffled, duplicated, some lost (reconciliation reads the simulator's API),
   * through the published webhook port: PostgreSQL converges to the store's truth and the picking
   * system receives every effect once, read from separacao.efeitos on the compose broker; the
   * picking system's own user reads that topic in its own group, and no other group.
   */
  @Test
  @Order(2)
  void oSimuladorPelaPortaPublicadaConvergeEOsEfeitosSaoPublicados() throws Exception {
    try (Simulacao simulacao = simulacao("compose", 1, 300, 150)) {
      simulacao.iniciarApi();
      aprovar(simulacao.executar());
    }

    Map<String, Object> separacao =
        new HashMap<>(PilhaDoCompose.clienteDoKafka("pedidos-separacao", pilha.senhaDaSeparacao));
    separacao.put(ConsumerConfig.GROUP_ID_CONFIG, "separacao-implantacao");
    try (KafkaConsumer<String, String> consumidor = consumidor(separacao)) {
      consumidor.subscribe(List.of("separacao.efeitos"));
      long[] lidos = {0};
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                lidos[0] += consumidor.poll(Duration.ofMillis(500)).count();
                return lidos[0] > 0;
              });
    }
    separacao.put(ConsumerConfig.GROUP_ID_CONFIG, "outro-grupo");
    try (KafkaConsumer<String, String> consumidor = consumidor(separacao)) {
      consumidor.subscribe(List.of("separacao.efeitos"));
      assertThatThrownBy(() -> consumidor.poll(Duration.ofSeconds(30)))
          .as("the picking system's user in a group not named separacao*")
          .isInstanceOf(GroupAuthorizationException.class);
    }
    medir("first simulation");
  }

  /**
   * Mid-stream, the aplicador's JVM and the active relay's are killed at once (SIGKILL, as a
   * crash): the standby takes the lease, the engine's restart policy starts both containers again
   * (same containers, restart count up, healthy again, the old relay now standing by), and the
   * simulation still converges with every effect published once.
   */
  @Test
  @Order(3)
  void jvmsDoAplicadorEDoRelayAtivoMortasVoltamSemPerderNada() throws Exception {
    String ativo =
        papel("publicador-outbox").equals("ATIVO")
            ? "publicador-outbox"
            : "publicador-outbox-reserva";
    String reserva =
        ativo.equals("publicador-outbox") ? "publicador-outbox-reserva" : "publicador-outbox";
    Map<String, InspectContainerResponse> antes = new HashMap<>();
    for (String servico : List.of("aplicador", ativo)) {
      antes.put(servico, pilha.container(servico));
    }
    try (Simulacao simulacao = simulacao("queda", 2, 250, 60)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("queda") > 80);

      pilha.matarJvm("aplicador");
      pilha.matarJvm(ativo);
      long morte = System.nanoTime();

      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .alias("the standby takes over")
          .until(() -> papel(reserva).equals("ATIVO"));
      System.out.printf(
          "the standby relay was active %d ms after the kill%n",
          Duration.ofNanos(System.nanoTime() - morte).toMillis());
      for (String servico : List.of("aplicador", ativo)) {
        await()
            .atMost(ESPERA)
            .alias(servico + " restarted by the engine and healthy")
            .until(
                () -> {
                  InspectContainerResponse agora = pilha.container(servico);
                  return agora.getRestartCount() > antes.get(servico).getRestartCount()
                      && pilha.saudavel(servico);
                });
        InspectContainerResponse agora = pilha.container(servico);
        assertThat(agora.getId())
            .as(servico + ": the same container")
            .isEqualTo(antes.get(servico).getId());
      }
      System.out.printf(
          "both healthy again %d ms after the kill%n",
          Duration.ofNanos(System.nanoTime() - morte).toMillis());
      assertThat(papel(ativo)).as("the restarted relay stands by").isEqualTo("RESERVA");
      aprovar(execucao.get());
    }
    medir("crash and restart");
  }

  /**
   * With the pipeline at rest, Kafka's and PostgreSQL's containers are recreated: new containers on
   * the same volumes keep every topic with its partitions and end offsets, the aplicador group's
   * committed offsets, the users and ACLs, every order, the inbox, the outbox, the replication
   * slot; and the services, never restarted by hand, carry on: a new simulation converges.
   */
  @Test
  @Order(4)
  void kafkaEPostgresRecriadosGuardamTopicosOffsetsEDados() throws Exception {
    try (Admin admin = admin(pilha.administradorDoKafka())) {
      await()
          .atMost(ESPERA)
          .alias("the pipeline at rest: every event applied, every effect sent, offsets committed")
          .until(
              () ->
                  comoDono()
                              .contar(
                                  "SELECT count(*) FROM webhook_eventos WHERE aplicado_em IS NULL")
                          == 0
                      && comoDono().contar("SELECT count(*) FROM outbox WHERE enviado_em IS NULL")
                          == 0
                      && FotoDoKafka.tirar(admin).aplicadorEmDia());
    }
    FotoDoKafka kafkaAntes;
    try (Admin admin = admin(pilha.administradorDoKafka())) {
      kafkaAntes = FotoDoKafka.tirar(admin);
    }
    FotoDosDados dadosAntes;
    try (Connection dono = conectar()) {
      dadosAntes = FotoDosDados.tirar(dono);
    }
    assertThat(kafkaAntes.registrosDosEventos()).isPositive();
    assertThat(dadosAntes.pedidos()).isPositive();
    String kafkaVelho = pilha.container("kafka").getId();
    String postgresVelho = pilha.container("postgres").getId();
    pilha.guardarLogs("antes-de-recriar");

    pilha.recriar("kafka", "postgres");

    assertThat(pilha.container("kafka").getId())
        .as("a new kafka container")
        .isNotEqualTo(kafkaVelho);
    assertThat(pilha.container("postgres").getId())
        .as("a new postgres container")
        .isNotEqualTo(postgresVelho);
    await()
        .atMost(ESPERA)
        .alias("the recreated kafka and postgres healthy")
        .until(() -> pilha.saudavel("kafka") && pilha.saudavel("postgres"));
    medir("kafka and postgres recreated and healthy");

    FotoDosDados dadosDepois;
    try (Connection dono = conectar()) {
      dadosDepois = FotoDosDados.tirar(dono);
    }
    assertThat(dadosDepois).as("PostgreSQL's data after recreation").isEqualTo(dadosAntes);
    FotoDoKafka kafkaDepois;
    try (Admin admin = admin(pilha.administradorDoKafka())) {
      kafkaDepois = FotoDoKafka.tirar(admin);
    }
    assertThat(kafkaDepois).as("Kafka's data after recreation").isEqualTo(kafkaAntes);

    try (Simulacao simulacao = simulacao("recriado", 3, 120, 60)) {
      simulacao.iniciarApi();
      aprovar(simulacao.executar());
    }
    try (Admin admin = admin(pilha.administradorDoKafka())) {
      FotoDoKafka depoisDaSimulacao = FotoDoKafka.tirar(admin);
      depoisDaSimulacao
          .offsetsDoAplicador()
          .forEach(
              (particao, offset) ->
                  assertThat(offset)
                      .as("the aplicador resumed %s from its committed offset", particao)
                      .isGreaterThanOrEqualTo(
                          kafkaAntes.offsetsDoAplicador().getOrDefault(particao, 0L)));
    }
    // Recreated together, kafka and postgres may swap addresses, and a service's JVM keeps a
    // resolved name for 30 s: its connections are refused meanwhile, and the engine's healthcheck
    // (every 10 s) may still say unhealthy when the simulation ends. Healthy again by itself is
    // what counts.
    for (String servico : PilhaDoCompose.SERVICOS) {
      await()
          .atMost(Duration.ofSeconds(90))
          .alias(servico + " healthy at the end")
          .until(() -> pilha.saudavel(servico));
    }
    medir("recreation and a simulation after it");
  }

  /**
   * The simulator's compose service (profile "simulador") builds from the same Dockerfile as the
   * services, as a plain jar without an AOT cache, and its jar runs in it: given a flag it does not
   * know, it says so and prints its usage.
   */
  @Test
  @Order(5)
  void aImagemDoSimuladorConstroiERoda() {
    PilhaDoCompose.Saida simulador = pilha.simuladorDaImagem();
    assertThat(simulador.texto())
        .as(simulador.toString())
        .contains("unknown flag --sem-tal", "usage: java -jar simulador-loja.jar");
    medir("the simulator's image built and run");
  }

  private Simulacao simulacao(String prefixo, long semente, int pedidos, double taxa) {
    return Simulacao.builder()
        .receptor(pilha.urlDoReceptor())
        .segredo(pilha.segredoDoWebhook)
        .banco(pilha.jdbcUrl(), "pedidos_dono", pilha.senhaDoDono)
        .kafka(pilha.bootstrapDoKafka(), pilha.administradorDoKafka())
        .enderecoDaApi(pilha.enderecoDoHost)
        .portaDaApi(pilha.portaDaApi)
        .tokenDaApi(pilha.tokenDaApi)
        .prefixo(prefixo)
        .semente(semente)
        .pedidos(pedidos)
        .taxa(taxa)
        .perda(0.05)
        .duplicacao(0.3)
        .espera(ESPERA)
        .construir();
  }

  private static void aprovar(Relatorio relatorio) {
    System.out.println(relatorio.texto());
    assertThat(relatorio.ok()).as(relatorio.texto()).isTrue();
    assertThat(relatorio.pedidos()).isPositive();
    assertThat(relatorio.divergencias()).isEmpty();
    assertThat(relatorio.separacao()).as("separacao.efeitos was read").isNotNull();
    assertThat(relatorio.separacao().efeitos()).as("effects received").isPositive();
    assertThat(relatorio.separacao().ilegiveis()).isZero();
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

  private String papel(String relay) {
    return pilha.papelDoRelay(relay).orElse("");
  }

  private List<String> papeis() {
    List<String> papeis = new ArrayList<>();
    for (String relay : PilhaDoCompose.RELAYS) {
      papeis.add(papel(relay));
    }
    return papeis;
  }

  private long saidaDe(String servico) {
    InspectContainerResponse.ContainerState estado = pilha.container(servico).getState();
    assertThat(estado.getStatus()).as(servico).isEqualTo("exited");
    return estado.getExitCodeLong();
  }

  private HttpResponse<String> painel(String credenciais) throws Exception {
    HttpRequest.Builder pedido =
        HttpRequest.newBuilder(pilha.urlDoPainel().resolve("/status/painel"))
            .timeout(Duration.ofSeconds(10));
    if (credenciais != null) {
      pedido.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder().encodeToString(credenciais.getBytes(StandardCharsets.UTF_8)));
    }
    return HTTP.send(pedido.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The topics' names as the client sees them; refused clients fail within five seconds. */
  private Set<String> topicos(Map<String, Object> cliente) throws Exception {
    try (Admin admin = admin(cliente, Duration.ofSeconds(5))) {
      return admin.listTopics().names().get(30, TimeUnit.SECONDS);
    }
  }

  private Admin admin(Map<String, Object> cliente) {
    return admin(cliente, Duration.ofSeconds(20));
  }

  private Admin admin(Map<String, Object> cliente, Duration prazo) {
    Properties config = new Properties();
    config.putAll(cliente);
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, pilha.bootstrapDoKafka());
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(prazo.toMillis() / 2));
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(prazo.toMillis()));
    return Admin.create(config);
  }

  private KafkaProducer<String, String> produtor(Map<String, Object> cliente) {
    Properties config = new Properties();
    config.putAll(cliente);
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, pilha.bootstrapDoKafka());
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(config);
  }

  private KafkaConsumer<String, String> consumidor(Map<String, Object> cliente) {
    Properties config = new Properties();
    config.putAll(cliente);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, pilha.bootstrapDoKafka());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return new KafkaConsumer<>(config);
  }

  private long eventosGuardados(String prefixo) {
    return comoDono()
        .contar(
            "SELECT count(*) FROM webhook_eventos WHERE recurso_id LIKE ?",
            "ord_" + prefixo + "_%");
  }

  /** As the schema's owner, the role an operator's tools (and the simulator's verifier) use. */
  private Connection conectar() throws SQLException {
    return DriverManager.getConnection(pilha.jdbcUrl(), "pedidos_dono", pilha.senhaDoDono);
  }

  /** The same, for one-value queries. */
  private Consultas comoDono() {
    return Consultas.de(pilha.jdbcUrl(), "pedidos_dono", pilha.senhaDoDono);
  }

  private void medir(String fase) {
    System.out.printf(
        "[deployment test] %s: %d s since the start%n",
        fase, Duration.ofNanos(System.nanoTime() - inicio).toSeconds());
  }
}
