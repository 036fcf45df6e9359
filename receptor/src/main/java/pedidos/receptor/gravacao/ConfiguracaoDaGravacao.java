package pedidos.receptor.gravacao;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.receptor.ReceptorProperties;

/** The receptor's JDBC access and the write mode chosen by {@code receptor.gravacao.modo}. */
@Configuration(proxyBeanMethods = false)
class ConfiguracaoDaGravacao {

  /** Every statement the receptor runs is cancelled after {@code tempo-limite-do-comando}. */
  @Bean
  JdbcClient jdbcDoReceptor(DataSource dataSource, ReceptorProperties propriedades) {
    JdbcTemplate template = new JdbcTemplate(dataSource);
    template.setQueryTimeout((int) Math.max(1, propriedades.tempoLimiteDoComando().toSeconds()));
    return JdbcClient.create(template);
  }

  @Bean
  Gravador gravador(
      ReceptorProperties propriedades,
      GravacaoDeLote gravacao,
      ObservadorDoReceptor observador,
      DataSource dataSource) {
    return switch (propriedades.gravacao().modo()) {
      case GRUPO -> new GravadorEmGrupo(gravacao, observador, propriedades);
      case INDIVIDUAL ->
          new GravadorDireto(
              gravacao, vagasParaRequisicoes(dataSource), propriedades.esperaPelaGravacao());
    };
  }

  /** The pool's connections but two, kept for the quarantine and the health check. */
  static int vagasParaRequisicoes(DataSource dataSource) {
    int conexoes = dataSource instanceof HikariDataSource hikari ? hikari.getMaximumPoolSize() : 10;
    return Math.max(1, conexoes - 2);
  }
}
