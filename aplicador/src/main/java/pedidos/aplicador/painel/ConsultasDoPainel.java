package pedidos.aplicador.painel;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Properties;
import javax.sql.DataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import pedidos.aplicador.configuracao.AplicadorProperties;

/**
 * The status page's own connections: a small pool beside the listener's, with a short statement
 * timeout. However many page loads arrive, they can hold at most {@code aplicador.painel.conexoes}
 * connections for at most {@code aplicador.painel.tempo-limite} each, and never one an apply is
 * waiting for. Not a {@link DataSource} bean, so Spring Boot's pool stays the application's one.
 */
@Component
class ConsultasDoPainel implements DisposableBean {

  private final HikariDataSource pool;
  private final JdbcClient jdbc;

  ConsultasDoPainel(DataSource principal, AplicadorProperties propriedades) {
    AplicadorProperties.Painel painel = propriedades.painel();
    HikariDataSource pool = new HikariDataSource();
    pool.setPoolName("painel");
    pool.setMaximumPoolSize(painel.conexoes());
    // Opened at the first page load, closed when idle: most of the time nobody looks.
    pool.setMinimumIdle(0);
    pool.setIdleTimeout(60_000);
    pool.setConnectionTimeout(2_000);
    pool.setValidationTimeout(1_000);
    Properties propriedadesDoDriver = new Properties();
    if (principal instanceof HikariDataSource origem) {
      // The same server, role and driver settings (TLS, failover hosts, timeouts) as the service.
      pool.setJdbcUrl(origem.getJdbcUrl());
      pool.setUsername(origem.getUsername());
      pool.setPassword(origem.getPassword());
      propriedadesDoDriver.putAll(origem.getDataSourceProperties());
    } else {
      pool.setDataSource(principal);
    }
    String opcoes = propriedadesDoDriver.getProperty("options", "");
    // A later -c wins: the panel's timeout, whatever the service's own is.
    propriedadesDoDriver.setProperty(
        "options",
        (opcoes + " -c statement_timeout=" + painel.tempoLimite().toMillis() + "ms").strip());
    propriedadesDoDriver.setProperty("ApplicationName", "aplicador-painel");
    pool.setDataSourceProperties(propriedadesDoDriver);
    this.pool = pool;
    this.jdbc = JdbcClient.create(pool);
  }

  JdbcClient jdbc() {
    return jdbc;
  }

  @Override
  public void destroy() {
    pool.close();
  }
}
