package pedidos.esquema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;

/** The migrations against the real PostgreSQL, each test on a database of its own. */
@Tag("todas-as-versoes-do-postgres")
class MigracoesTest {

  private static PostgresLocal postgres;

  @BeforeAll
  static void infra() {
    postgres = InfraLocal.compartilhada().postgres();
    // The grants name the services' roles, which the deployment creates before migrating.
    postgres.prepararPapeis();
  }

  @Test
  void variasInstanciasMigramAoMesmoTempoSemErro() throws Exception {
    String url = bancoNovo();
    int instancias = 6;
    ExecutorService threads = Executors.newFixedThreadPool(instancias);
    try {
      CountDownLatch largada = new CountDownLatch(1);
      List<Future<MigrateResult>> migracoes = new ArrayList<>();
      for (int i = 0; i < instancias; i++) {
        migracoes.add(
            threads.submit(
                () -> {
                  largada.await();
                  return flyway(url).migrate();
                }));
      }
      largada.countDown();
      int aplicadas = 0;
      for (Future<MigrateResult> migracao : migracoes) {
        MigrateResult resultado = migracao.get(1, TimeUnit.MINUTES);
        assertThat(resultado.success).isTrue();
        aplicadas += resultado.migrationsExecuted;
      }
      int disponiveis = flyway(url).info().all().length;
      assertThat(aplicadas).as("each migration ran exactly once").isEqualTo(disponiveis);
      assertThat(consultar(url, "SELECT count(*) FROM cursores")).isEqualTo(1L);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void v1EOEsquemaDaSemente() throws Exception {
    String url = bancoNovo();
    flyway(url).migrate();

    assertThat(
            consultar(
                url,
                "SELECT count(*) FROM cursores WHERE nome = 'pedidos_loja'"
                    + " AND valor BETWEEN now() - interval '25 hours' AND now() - interval '23 hours'"))
        .isEqualTo(1L);
    assertThat(
            consultar(
                url,
                "SELECT count(*) FROM pg_indexes WHERE indexname = 'webhook_eventos_pendentes'"
                    + " AND indexdef LIKE '%WHERE (aplicado_em IS NULL)%'"))
        .isEqualTo(1L);
    assertThatThrownBy(
            () ->
                executar(
                    url,
                    "INSERT INTO pedidos (id, status, versao_origem) VALUES ('x', 'perdido', 1)"))
        .isInstanceOf(SQLException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .as("check_violation")
        .isEqualTo("23514");
    executar(url, "INSERT INTO outbox (pedido_id, efeito) VALUES ('x', 'liberar_separacao')");
    assertThatThrownBy(
            () ->
                executar(
                    url,
                    "INSERT INTO outbox (pedido_id, efeito) VALUES ('x', 'liberar_separacao')"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .as("unique_violation: each effect once per order")
        .isEqualTo("23505");
  }

  private static Flyway flyway(String url) {
    return Flyway.configure()
        .dataSource(url, postgres.usuario(), postgres.senha())
        .locations("classpath:db/migration")
        .load();
  }

  private static String bancoNovo() throws SQLException {
    String banco = "migracao_" + UUID.randomUUID().toString().replace("-", "");
    executar(postgres.jdbcUrl(), "CREATE DATABASE " + banco);
    return postgres.jdbcUrl().replace("/" + postgres.banco(), "/" + banco);
  }

  private static void executar(String url, String sql) throws SQLException {
    try (Connection conexao =
            DriverManager.getConnection(url, postgres.usuario(), postgres.senha());
        Statement comando = conexao.createStatement()) {
      comando.execute(sql);
    }
  }

  private static long consultar(String url, String sql) throws SQLException {
    try (Connection conexao =
            DriverManager.getConnection(url, postgres.usuario(), postgres.senha());
        Statement comando = conexao.createStatement();
        ResultSet linhas = comando.executeQuery(sql)) {
      linhas.next();
      return linhas.getLong(1);
    }
  }
}
