package pedidos.simulador;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;

/** A fresh database on the JVM's shared PostgreSQL, migrated with the services' migrations. */
record BancoDeTeste(String url, String usuario, String senha) {

  static BancoDeTeste novo() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    // The migrations grant to the services' roles, which must exist in the cluster.
    postgres.prepararPapeis();
    String nome = "simulador_" + UUID.randomUUID().toString().replace("-", "");
    try (Connection conexao =
            DriverManager.getConnection(postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
        Statement comando = conexao.createStatement()) {
      comando.execute("CREATE DATABASE " + nome);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    var banco =
        new BancoDeTeste(
            postgres.jdbcUrl().replace("/" + postgres.banco(), "/" + nome),
            postgres.usuario(),
            postgres.senha());
    Flyway.configure()
        .dataSource(banco.url(), banco.usuario(), banco.senha())
        .locations("classpath:db/migration")
        .load()
        .migrate();
    return banco;
  }

  Connection conectar() throws SQLException {
    return DriverManager.getConnection(url, usuario, senha);
  }

  void executar(String sql) throws SQLException {
    try (Connection conexao = conectar();
        Statement comando = conexao.createStatement()) {
      comando.execute(sql);
    }
  }

  BancoDoSistema doSistema() {
    return new BancoDoSistema(url, usuario, senha);
  }
}
