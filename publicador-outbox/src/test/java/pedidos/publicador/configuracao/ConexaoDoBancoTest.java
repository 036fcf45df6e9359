package pedidos.publicador.configuracao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;

/** One set of standard variables configures the relay's every connection. */
class ConexaoDoBancoTest {

  private static final PublicadorProperties.Banco NADA =
      new PublicadorProperties.Banco(null, null, null);

  @Test
  void derivaDoDatasource() {
    ConexaoDoBanco conexao =
        ConexaoDoBanco.de(
            NADA, "jdbc:postgresql://db.interno:6543/pedidos?sslmode=require", "app", "s3");

    assertThat(conexao)
        .isEqualTo(
            new ConexaoDoBanco(
                "jdbc:postgresql://db.interno:6543/pedidos?sslmode=require",
                "db.interno",
                6543,
                "pedidos",
                "app",
                "s3"));
    assertThat(conexao.toString()).doesNotContain("s3");
  }

  @Test
  void portaPadrao() {
    ConexaoDoBanco conexao = ConexaoDoBanco.de(NADA, "jdbc:postgresql://db/pedidos", "app", null);

    assertThat(conexao.porta()).isEqualTo(5432);
    assertThat(conexao.senha()).isNull();
  }

  @Test
  void oProprioVenceODatasourceCampoACampo() {
    ConexaoDoBanco conexao =
        ConexaoDoBanco.de(
            new PublicadorProperties.Banco("jdbc:postgresql://primario:5432/pedidos", "cdc", null),
            "jdbc:postgresql://pgbouncer:6432/pedidos",
            "app",
            "s3");

    assertThat(conexao.host()).isEqualTo("primario");
    assertThat(conexao.usuario()).isEqualTo("cdc");
    assertThat(conexao.senha()).as("not overridden").isEqualTo("s3");
  }

  /** The lease's and the offset store's connections: a silent database never hangs their thread. */
  @Test
  void conexoesForaDoPoolLimitamCadaEspera() throws Exception {
    ConexaoDoBanco banco = bancoCompartilhado();
    try (Connection conexao =
            conectar(
                banco,
                banco.propriedadesDoDriver(
                    "teste-limites", Duration.ofSeconds(7), Duration.ofMillis(1500)));
        Statement comando = conexao.createStatement()) {
      assertThat(conexao.getNetworkTimeout()).as("socket timeout, ms").isEqualTo(7000);
      try (ResultSet r = comando.executeQuery("SHOW statement_timeout")) {
        r.next();
        assertThat(r.getString(1)).isEqualTo("1500ms");
      }
      // A client gone silent inside a transaction loses its session, and its locks, on the server.
      try (ResultSet r = comando.executeQuery("SHOW idle_in_transaction_session_timeout")) {
        r.next();
        assertThat(r.getString(1)).isEqualTo("10s");
      }
      try (ResultSet r =
          comando.executeQuery(
              "SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()")) {
        r.next();
        assertThat(r.getString(1)).isEqualTo("teste-limites");
      }
      // The server ends a statement that outlives its limit (SQLState 57014, query_canceled).
      assertThatThrownBy(() -> comando.execute("SELECT pg_sleep(5)"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
    }
  }

  /** The lease's session: once its holder is silent for the time to live, the server ends it. */
  @Test
  void aSessaoDaTravaCaladaEEncerradaPeloServidor() throws Exception {
    ConexaoDoBanco banco = bancoCompartilhado();
    try (Connection conexao =
            conectar(
                banco,
                banco.propriedadesDoDriver(
                    "teste-ociosa",
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(2)));
        Statement comando = conexao.createStatement()) {
      JdbcClient jdbc = JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource());
      int pid;
      try (ResultSet r = comando.executeQuery("SELECT pg_backend_pid()")) {
        r.next();
        pid = r.getInt(1);
      }
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE pid = ?")
                          .param(pid)
                          .query(Long.class)
                          .single()
                      == 0);
      assertThatThrownBy(() -> comando.executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
    }
  }

  private static ConexaoDoBanco bancoCompartilhado() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    return ConexaoDoBanco.de(NADA, postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
  }

  private static Connection conectar(ConexaoDoBanco banco, Properties propriedades)
      throws SQLException {
    return DriverManager.getConnection(banco.jdbcUrl(), propriedades);
  }

  @Test
  void recusaVariosHostsEUrlsQueNaoSaoDoPostgres() {
    assertThatThrownBy(
            () -> ConexaoDoBanco.de(NADA, "jdbc:postgresql://a:5432,b:5432/pedidos", "u", "s"))
        .hasMessageContaining("single host");
    assertThatThrownBy(() -> ConexaoDoBanco.de(NADA, "jdbc:mysql://a/pedidos", "u", "s"))
        .hasMessageContaining("not a PostgreSQL");
    assertThatThrownBy(() -> ConexaoDoBanco.de(NADA, null, "u", "s"))
        .hasMessageContaining("spring.datasource.url");
  }
}
