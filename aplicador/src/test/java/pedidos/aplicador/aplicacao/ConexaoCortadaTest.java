package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.varredura.Varredura;
import pedidos.dominio.ModoDeAplicacao;

/**
 * PostgreSQL cutting a connection in the middle of a statement, as a restart or a failover does:
 * the thread that waited is freed at once with a transient failure, and the work is done
 * afterwards.
 */
class ConexaoCortadaTest extends ContextoDoAplicador {

  @Autowired DataSource dataSource;
  @Autowired JdbcClient jdbc;
  @Autowired NamedParameterJdbcTemplate pipeline;
  @Autowired TransactionTemplate transacao;
  @Autowired AplicadorProperties propriedades;
  @Autowired MetricasDoAplicador metricas;
  @Autowired Varredura varredura;

  private final String p = UUID.randomUUID().toString().substring(0, 8) + "-";

  @Test
  void conexoesDoPoolTemLimitesDeComandoEDeLeitura() throws Exception {
    try (Connection conexao = dataSource.getConnection()) {
      assertThat(jdbc.sql("SHOW statement_timeout").query(String.class).single()).isEqualTo("30s");
      assertThat(conexao.getNetworkTimeout())
          .as("socketTimeout, above statement_timeout: PostgreSQL cancels a slow statement first")
          .isEqualTo(60_000);
      assertThat(jdbc.sql("SHOW idle_session_timeout").query(String.class).single())
          .isEqualTo("5min");
      assertThat(jdbc.sql("SHOW idle_in_transaction_session_timeout").query(String.class).single())
          .isEqualTo("10s");
      assertThat(jdbc.sql("SHOW application_name").query(String.class).single())
          .as("its sessions named in pg_stat_activity, as the receptor's and the relay's")
          .isEqualTo("aplicador");
    }
  }

  /**
   * A listener thread whose connection went silent in the middle of an apply (a partition: the
   * server keeps a healthy socket) leaves a backend idle in its transaction, holding the order's
   * lock. The server ends it within idle_in_transaction_session_timeout, and the order can be
   * applied again.
   */
  @Test
  void transacaoQueSeCalaPerdeOLockDoPedido() throws Exception {
    String pedido = p + "calado";
    Connection calada = dataSource.getConnection();
    // The pool's bound (10 s, checked above) shortened for this session; the mechanism is the
    // server's.
    try (Statement encurtar = calada.createStatement()) {
      encurtar.execute("SET idle_in_transaction_session_timeout = 2000");
    }
    calada.setAutoCommit(false);
    try (PreparedStatement lock =
        calada.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
      lock.setString(1, pedido);
      lock.execute();
    }
    long inicio = System.nanoTime();
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                transacao.execute(
                    status ->
                        jdbc.sql("SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0))")
                            .param(pedido)
                            .query(Boolean.class)
                            .single()));
    assertThat(Duration.ofNanos(System.nanoTime() - inicio))
        .as("the lock outlived the silent transaction for a while")
        .isGreaterThan(Duration.ofMillis(1500));
    // Giving it back rolls back, and finds the session ended by the server (SQLState 25P03).
    assertThatThrownBy(calada::close)
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25P03"));
  }

  @Test
  void aplicacaoQueEsperavaOLockEmUmaConexaoCortadaFalhaComoTransitoriaEDepoisSeCompleta()
      throws Exception {
    String pedido = p + "ord";
    String evento = p + "e1";
    jdbc.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
            VALUES (?, ?, 'order.paid', ?::jsonb, now() - interval '1 hour')
            """)
        .params(
            evento,
            pedido,
            """
            {"id": "%s", "type": "order.paid", "sequence": 1,
             "occurred_at": "2026-11-30T10:00:00Z", "data": {"id": "%s"}}
            """
                .formatted(evento, pedido))
        .update();
    // An apply that would wait on the order's lock for minutes, as the listener's does for its
    // espera-por-lock.
    var paciente = new AplicadorDeEventos(jdbc, pipeline, transacao, comEsperaPorLock(), metricas);

    try (Connection dono = dataSource.getConnection()) {
      dono.setAutoCommit(false);
      try (PreparedStatement lock =
          dono.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
        lock.setString(1, pedido);
        lock.execute();
      }
      CompletableFuture<Optional<EventoAplicado>> aplicacao =
          CompletableFuture.supplyAsync(() -> paciente.aplicar(evento, ModoDeAplicacao.NORMAL));
      Integer pid =
          await()
              .atMost(Duration.ofSeconds(10))
              .until(
                  () ->
                      jdbc.sql(
                              """
                              SELECT pid FROM pg_stat_activity
                               WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'
                                 AND query LIKE '%pg_advisory_xact_lock%' AND query LIKE '%webhook_eventos%'
                                 AND pid <> pg_backend_pid()
                              """)
                          .query(Integer.class)
                          .optional()
                          .orElse(null),
                  found -> found != null);

      long inicio = System.nanoTime();
      jdbc.sql("SELECT pg_terminate_backend(?)").param(pid).query(Boolean.class).single();
      Throwable falha = null;
      try {
        aplicacao.get(10, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        falha = e.getCause();
      }
      assertThat(Duration.ofNanos(System.nanoTime() - inicio)).isLessThan(Duration.ofSeconds(5));
      assertThat(falha).as("the apply failed").isNotNull();
      assertThat(FalhaTransitoria.eh(falha))
          .as("as transient (it is retried, never settled): %s", cadeia(falha))
          .isTrue();
      dono.rollback();
    }

    assertThat(varredura.varrer()).isGreaterThanOrEqualTo(1);
    assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("pago");
  }

  private static String cadeia(Throwable falha) {
    var texto = new StringBuilder();
    for (Throwable causa = falha; causa != null; causa = causa.getCause()) {
      texto.append(" <- ").append(causa.getClass().getName());
      if (causa instanceof java.sql.SQLException sql) {
        texto.append('[').append(sql.getSQLState()).append(']');
      }
      texto.append(": ").append(causa.getMessage());
    }
    return texto.toString();
  }

  private AplicadorProperties comEsperaPorLock() {
    return new AplicadorProperties(
        propriedades.topico(),
        propriedades.topicoDeDescarte(),
        propriedades.topicos(),
        propriedades.grupo(),
        propriedades.concorrencia(),
        propriedades.eventosPorTransacao(),
        Duration.ofMinutes(5),
        propriedades.tentativasDeFalhaDesconhecida(),
        propriedades.esperaMaximaEntreTentativas(),
        false,
        propriedades.varredura(),
        propriedades.reconciliacao(),
        propriedades.ops(),
        propriedades.painel(),
        propriedades.retencao(),
        propriedades.rederivacaoEmMassa(),
        propriedades.assinatura());
  }
}
