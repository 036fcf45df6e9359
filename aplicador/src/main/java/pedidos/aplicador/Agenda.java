package pedidos.aplicador;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.transaction.support.TransactionTemplate;

/** The applier's periodic work: the sweep, and reconciliation when the orders API is configured. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class Agenda implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(Agenda.class);

  private final AplicadorProperties propriedades;
  private final Varredura varredura;
  private final Reconciliacao reconciliacao;

  Agenda(
      AplicadorProperties propriedades,
      Varredura varredura,
      JdbcClient jdbc,
      DataSource dataSource,
      TransactionTemplate transacao,
      CaixaDeEntrada caixaDeEntrada,
      AplicadorDeEventos aplicador,
      MetricasDoAplicador metricas,
      Clock relogio,
      MeterRegistry registro) {
    this.propriedades = propriedades;
    this.varredura = varredura;
    var config = propriedades.reconciliacao();
    this.reconciliacao =
        config.ligada()
            ? new Reconciliacao(
                new ClienteDaLoja(
                    URI.create(config.url()), config.token(), config.limite(), config.timeout()),
                jdbc,
                caixaDeEntrada,
                aplicador,
                metricas,
                dataSource,
                transacao,
                config.sobreposicao(),
                relogio,
                registro)
            : null;
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tarefas) {
    if (!propriedades.tarefasPeriodicas()) {
      return;
    }
    tarefas.addFixedDelayTask(varredura::varrer, propriedades.varredura().intervalo());
    if (reconciliacao == null) {
      log.info("reconciliation is off: LOJA_API_URL is not set");
    } else {
      log.info(
          "reconciliation every {} from {}",
          propriedades.reconciliacao().intervalo(),
          propriedades.reconciliacao().url());
      tarefas.addFixedDelayTask(
          reconciliacao::reconciliar, propriedades.reconciliacao().intervalo());
    }
  }
}
