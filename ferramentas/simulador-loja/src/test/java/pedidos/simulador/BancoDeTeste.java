package pedidos.simulador;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;
import pedidos.testes.PostgresDeTeste;

/** A fresh database on the JVM's shared PostgreSQL, migrated with the services' migrations. */
record BancoDeTeste(String url, String usuario, String senha) {

  static BancoDeTeste novo() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    return new BancoDeTeste(
        PostgresDeTeste.bancoNovo("simulador"), postgres.usuario(), postgres.senha());
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
