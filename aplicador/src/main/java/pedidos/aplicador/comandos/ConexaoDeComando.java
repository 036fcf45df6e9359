package pedidos.aplicador.comandos;

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
    SingleConnectionDataSource dataSource, JdbcClient jdbc, TransactionTemplate transacao)
    implements AutoCloseable {

  /**
   * @throws BancoIndisponivelException when the database cannot be reached, is not supported or is
   *     not at this version's migrations: the command did nothing
   */
  static ConexaoDeComando abrir(Credenciais credenciais) {
    String senha = credenciais.senha() == null ? "" : credenciais.senha();
    var dataSource =
        new SingleConnectionDataSource(credenciais.url(), credenciais.usuario(), senha, true);
    try {
      EsquemaNaPartida.verificar(
          Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load());
    } catch (RuntimeException e) {
      dataSource.destroy();
      throw new BancoIndisponivelException(e);
    }
    return new ConexaoDeComando(
        dataSource,
        JdbcClient.create(dataSource),
        new TransactionTemplate(new DataSourceTransactionManager(dataSource)));
  }

  @Override
  public void close() {
    dataSource.destroy();
  }

  /** The database a command needs is down, unsupported or not migrated: exit code 3. */
  static final class BancoIndisponivelException extends RuntimeException {

    BancoIndisponivelException(RuntimeException causa) {
      super(causa.getMessage(), causa);
    }
  }
}
