package pedidos.publicador;

import javax.sql.DataSource;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.stereotype.Component;

/**
 * Flyway migrates on connections of its own, same URL and credentials as the pool but without the
 * pool's socket and statement timeouts: those bound the relay's short statements, and would cut a
 * migration that rightly runs for minutes (an index on a large table) and leave it half applied.
 */
@Component
class MigracoesSemLimiteDeTempo implements FlywayConfigurationCustomizer {

  private final DataSource pool;

  MigracoesSemLimiteDeTempo(DataSource pool) {
    this.pool = pool;
  }

  @Override
  public void customize(FluentConfiguration configuracao) {
    configuracao.dataSource(
        DataSourceBuilder.derivedFrom(pool).type(SimpleDriverDataSource.class).build());
  }
}
