package pedidos.aplicador;

import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.esquema.EsquemaNaPartida;

/**
 * The one connection of a command that runs without the service's context ({@code apagar-cliente},
 * {@code reter}), checked as the service checks its database at start: a supported PostgreSQL, a
 * schema at this version's migrations.
 */
record ConexaoDeComando(
    SingleConnectionDataSource dataSource, JdbcClient jdbc, TransactionTemplate transacao) {

  static ConexaoDeComando abrir(String url, String usuario, String senha) {
    var dataSource = new SingleConnectionDataSource(url, usuario, senha == null ? "" : senha, true);
    try {
      EsquemaNaPartida.verificar(
          Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load());
    } catch (RuntimeException e) {
      dataSource.destroy();
      throw e;
    }
    return new ConexaoDeComando(
        dataSource,
        JdbcClient.create(dataSource),
        new TransactionTemplate(new DataSourceTransactionManager(dataSource)));
  }

  void fechar() {
    dataSource.destroy();
  }
}
