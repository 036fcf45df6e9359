package pedidos.receptor.gravacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.unit.DataSize;
import pedidos.infra.PostgresLocal;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.PropriedadesDeTeste;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.evento.EventoRecebido;

/**
 * The group-commit path against the real database, without HTTP in the way: concurrent events with
 * duplicates, conflicts, rows already stored and one body PostgreSQL refuses, all in one batch.
 */
@Tag("todas-as-versoes-do-postgres")
class GravacaoEmGrupoTest {

  private static final PostgresLocal postgres = BancoDeTeste.compartilhado();
  private static HikariDataSource dataSource;

  private final SimpleMeterRegistry metricas = new SimpleMeterRegistry();
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final String prefixo = "grp_" + UUID.randomUUID() + "_";
  private GravadorEmGrupo gravador;

  @BeforeAll
  static void migrar() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(postgres.jdbcUrl());
    dataSource.setUsername(postgres.usuario());
    dataSource.setPassword(postgres.senha());
    dataSource.setMaximumPoolSize(4);
    Flyway.configure().dataSource(dataSource).load().migrate();
  }

  @AfterAll
  static void fechar() {
    dataSource.close();
  }

  @AfterEach
  void parar() {
    if (gravador != null) {
      gravador.stop();
    }
    threads.shutdownNow();
  }

  @Test
  void umLoteComDuplicadosConflitosEUmaLinhaEnvenenadaDaACadaUmOSeuDesfecho() throws Exception {
    // One writer that waits long enough for every event below to join its batch.
    gravador = gravador(dataSource, 1, Duration.ofMillis(500));
    JdbcClient jdbc = JdbcClient.create(dataSource);
    jdbc.sql(CaixaDeEntrada.INSERIR_UM)
        .params(prefixo + "ja_igual", "ord", "order.paid", json(prefixo + "ja_igual", "paid"))
        .query(String.class)
        .list();
    jdbc.sql(CaixaDeEntrada.INSERIR_UM)
        .params(prefixo + "ja_outro", "ord", "order.paid", json(prefixo + "ja_outro", "paid"))
        .query(String.class)
        .list();

    Map<String, EventoRecebido> eventos = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      eventos.put("novo_" + i, evento(prefixo + "novo_" + i, "paid"));
    }
    for (int i = 0; i < 5; i++) {
      eventos.put("repetido_" + i, evento(prefixo + "novo_" + i, "paid"));
    }
    eventos.put("diferente_0", evento(prefixo + "novo_19", "canceled"));
    eventos.put("ja_igual", evento(prefixo + "ja_igual", "paid"));
    eventos.put("ja_outro", evento(prefixo + "ja_outro", "refunded"));
    String veneno = "{\"id\": \"" + prefixo + "veneno\", \"total\": 1e1000000}";
    eventos.put("veneno", new EventoRecebido(prefixo + "veneno", "ord", "order.paid", veneno));
    // A poisoned copy of an id that is in the batch: whichever copy goes first, the insert or the
    // comparison (no pg_input_is_valid on PostgreSQL 15) meets the bad body and refuses it alone.
    String venenoRepetido = "{\"id\": \"" + prefixo + "novo_3\", \"total\": 1e1000000}";
    eventos.put(
        "veneno_repetido",
        new EventoRecebido(prefixo + "novo_3", "ord", "order.paid", venenoRepetido));

    Map<String, Object> resultados = gravarJuntos(eventos);

    for (int i = 0; i < 19; i++) {
      assertThat(resultados.get("novo_" + i))
          .as("novo_" + i)
          .isIn(Desfecho.INSERIDO, Desfecho.DUPLICADO);
    }
    for (int i = 0; i < 5; i++) {
      // Either copy may be the one inserted; together: one inserted, one duplicate.
      assertThat(List.of(resultados.get("novo_" + i), resultados.get("repetido_" + i)))
          .containsExactlyInAnyOrder(Desfecho.INSERIDO, Desfecho.DUPLICADO);
    }
    assertThat(List.of(resultados.get("novo_19"), resultados.get("diferente_0")))
        .containsExactlyInAnyOrder(Desfecho.INSERIDO, Desfecho.CONFLITO);
    assertThat(resultados.get("ja_igual")).isEqualTo(Desfecho.DUPLICADO);
    assertThat(resultados.get("ja_outro")).isEqualTo(Desfecho.CONFLITO);
    Recusa recusada = (Recusa) resultados.get("veneno");
    assertThat(recusada.tipo()).isEqualTo(TipoDeRecusa.CORPO_INVALIDO);
    assertThat(recusada.motivo()).isEqualTo("recusado_pelo_banco");
    assertThat(recusada.getMessage()).contains("22003");
    Recusa recusadaRepetida = (Recusa) resultados.get("veneno_repetido");
    assertThat(recusadaRepetida.tipo()).isEqualTo(TipoDeRecusa.CORPO_INVALIDO);
    assertThat(recusadaRepetida.motivo()).isEqualTo("recusado_pelo_banco");

    assertThat(contar(prefixo + "novo_%")).isEqualTo(20);
    assertThat(contar(prefixo + "veneno")).isZero();
    assertThat(
            BancoDeTeste.texto(
                postgres,
                "SELECT payload->'data'->>'status' FROM webhook_eventos WHERE evento_id = ?",
                prefixo + "ja_outro"))
        .isEqualTo("paid");
    // It was one batch, it failed on the poisoned row, and it was redone event by event.
    assertThat(metricas.get("receptor.gravacao.lotes.refeitos").counter().count()).isEqualTo(1);
    assertThat(metricas.get("receptor.gravacao.lote").summary().max()).isGreaterThan(20);
  }

  @Test
  void escritoresConcorrentesComOsMesmosIdsNaoSeTravam() throws Exception {
    gravador = gravador(dataSource, 3, Duration.ZERO);
    Map<String, EventoRecebido> eventos = new LinkedHashMap<>();
    for (int copia = 0; copia < 4; copia++) {
      for (int i = 0; i < 50; i++) {
        eventos.put(copia + "_" + i, evento(prefixo + "mesmo_" + i, "paid"));
      }
    }

    Map<String, Object> resultados = gravarJuntos(eventos);

    assertThat(resultados.values()).allMatch(r -> r instanceof Desfecho, "every event stored");
    assertThat(resultados.values().stream().filter(Desfecho.INSERIDO::equals)).hasSize(50);
    assertThat(contar(prefixo + "mesmo_%")).isEqualTo(50);
  }

  @Test
  void bancoForaDoArFalhaOLoteInteiroCom503Depressa() throws Exception {
    try (HikariDataSource semBanco = new HikariDataSource()) {
      semBanco.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + portaSemNinguem() + "/x");
      semBanco.setConnectionTimeout(250);
      semBanco.setInitializationFailTimeout(-1);
      gravador = gravador(semBanco, 1, Duration.ofMillis(100));
      Map<String, EventoRecebido> eventos = new LinkedHashMap<>();
      for (int i = 0; i < 10; i++) {
        eventos.put("e" + i, evento(prefixo + "fora_" + i, "paid"));
      }

      long inicio = System.nanoTime();
      Map<String, Object> resultados = gravarJuntos(eventos);

      assertThat(resultados.values())
          .allMatch(
              r -> r instanceof Recusa recusa && recusa.tipo() == TipoDeRecusa.BANCO_INDISPONIVEL);
      assertThat(Duration.ofNanos(System.nanoTime() - inicio)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void umEventoSoNaoEsperaPorCompanhia() {
    gravador = gravador(dataSource, 1, Duration.ZERO);

    long inicio = System.nanoTime();
    Desfecho desfecho = gravador.gravar(evento(prefixo + "sozinho", "paid"));

    assertThat(desfecho).isEqualTo(Desfecho.INSERIDO);
    assertThat(Duration.ofNanos(System.nanoTime() - inicio)).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void depoisDeParadoRecusaCom503() {
    gravador = gravador(dataSource, 1, Duration.ZERO);
    gravador.stop();

    Throwable erro = catchThrowable(() -> gravador.gravar(evento(prefixo + "tarde", "paid")));

    assertThat(erro).isInstanceOf(Recusa.class);
    assertThat(((Recusa) erro).tipo()).isEqualTo(TipoDeRecusa.BANCO_INDISPONIVEL);
  }

  @Test
  void aFilaELimitadaEmBytesEDevolveOsBytesQuandoOLoteTermina() throws Exception {
    // A row locked by an open transaction: the one writer blocks on it with the first event.
    String preso = prefixo + "preso";
    int tamanho = evento(preso, "paid").json().length();
    gravador = gravador(dataSource, 1, Duration.ZERO, DataSize.ofBytes(3L * tamanho));
    try (java.sql.Connection trava = BancoDeTeste.conectar(postgres)) {
      trava.setAutoCommit(false);
      JdbcClient.create(
              new org.springframework.jdbc.datasource.SingleConnectionDataSource(trava, true))
          .sql(CaixaDeEntrada.INSERIR_UM)
          .params(preso, "ord", "order.paid", json(preso, "paid"))
          .query(String.class)
          .list();
      Future<Object> primeiro = threads.submit(() -> gravarOuRecusa(evento(preso, "paid")));
      await().until(() -> bytesNaFila() == tamanho);
      // Same length as the first: the queue now holds exactly its bound.
      Future<Object> segundo =
          threads.submit(() -> gravarOuRecusa(evento(prefixo + "fila1", "paid")));
      Future<Object> terceiro =
          threads.submit(() -> gravarOuRecusa(evento(prefixo + "fila2", "paid")));
      await().until(() -> bytesNaFila() == 3 * tamanho);

      Throwable cheia = catchThrowable(() -> gravador.gravar(evento(prefixo + "fila3", "paid")));

      assertThat(cheia).isInstanceOf(Recusa.class);
      assertThat(((Recusa) cheia).tipo()).isEqualTo(TipoDeRecusa.FILA_CHEIA);
      assertThat(((Recusa) cheia).motivo()).isEqualTo("fila_cheia");
      assertThat(primeiro.isDone() || segundo.isDone() || terceiro.isDone()).isFalse();
      trava.rollback();
      assertThat(primeiro.get()).isEqualTo(Desfecho.INSERIDO);
      assertThat(segundo.get()).isEqualTo(Desfecho.INSERIDO);
      assertThat(terceiro.get()).isEqualTo(Desfecho.INSERIDO);
    }
    await().until(() -> bytesNaFila() == 0);
    assertThat(gravador.gravar(evento(prefixo + "fila3", "paid"))).isEqualTo(Desfecho.INSERIDO);
    assertThat(contar(prefixo + "fila3")).isEqualTo(1);
  }

  private double bytesNaFila() {
    return metricas.get("receptor.gravacao.fila.bytes").gauge().value();
  }

  private Object gravarOuRecusa(EventoRecebido evento) {
    try {
      return gravador.gravar(evento);
    } catch (Recusa recusa) {
      return recusa;
    }
  }

  private GravadorEmGrupo gravador(
      javax.sql.DataSource banco, int escritores, Duration esperaMaxima) {
    return gravador(banco, escritores, esperaMaxima, DataSize.ofMegabytes(64));
  }

  private GravadorEmGrupo gravador(
      javax.sql.DataSource banco, int escritores, Duration esperaMaxima, DataSize bytesNaFila) {
    ReceptorProperties propriedades =
        PropriedadesDeTeste.daGravacao(
            new ReceptorProperties.Gravacao(
                ReceptorProperties.Modo.GRUPO, 128, escritores, esperaMaxima, 1000, bytesNaFila),
            // The properties keep the queue's bound above the largest body.
            DataSize.ofBytes(Math.min(DataSize.ofMegabytes(1).toBytes(), bytesNaFila.toBytes())));
    ObservadorDoReceptor observador = new ObservadorDoReceptor(metricas);
    CaixaDeEntrada caixa = new CaixaDeEntrada(JdbcClient.create(banco));
    GravacaoDeLote gravacao = new GravacaoDeLote(caixa, observador);
    GravadorEmGrupo novo = new GravadorEmGrupo(gravacao, observador, propriedades);
    novo.start();
    return novo;
  }

  /** Every event from its own thread, released together; the outcome or the refusal of each. */
  private Map<String, Object> gravarJuntos(Map<String, EventoRecebido> eventos) throws Exception {
    CountDownLatch largada = new CountDownLatch(1);
    Map<String, Future<Object>> futuros = new LinkedHashMap<>();
    for (Map.Entry<String, EventoRecebido> entrada : eventos.entrySet()) {
      Callable<Object> tarefa =
          () -> {
            largada.await();
            try {
              return gravador.gravar(entrada.getValue());
            } catch (Recusa recusa) {
              return recusa;
            }
          };
      futuros.put(entrada.getKey(), threads.submit(tarefa));
    }
    largada.countDown();
    Map<String, Object> resultados = new LinkedHashMap<>();
    for (Map.Entry<String, Future<Object>> futuro : futuros.entrySet()) {
      resultados.put(futuro.getKey(), futuro.getValue().get());
    }
    return resultados;
  }

  private static EventoRecebido evento(String id, String status) {
    return new EventoRecebido(id, "ord", "order.paid", json(id, status));
  }

  private static String json(String id, String status) {
    return "{\"id\": \"" + id + "\", \"data\": {\"id\": \"ord\", \"status\": \"" + status + "\"}}";
  }

  private static long contar(String padrao) {
    return BancoDeTeste.contar(
        postgres, "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ?", padrao);
  }

  /** A loopback port nobody listens on (free now; nothing here binds it later). */
  private static int portaSemNinguem() throws java.io.IOException {
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
