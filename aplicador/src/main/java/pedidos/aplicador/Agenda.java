package pedidos.aplicador;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.CaixaDeEntrada;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.reconciliacao.ClienteDaLoja;
import pedidos.aplicador.reconciliacao.Reconciliacao;
import pedidos.aplicador.retencao.Retencao;
import pedidos.aplicador.varredura.Varredura;

/**
 * The applier's periodic work: the sweep, reconciliation when the orders API is configured, and the
 * retention job.
 *
 * <p>Each task has a thread of its own. Spring's default scheduler (with virtual threads on, as
 * here) runs every fixed-delay task on its one scheduling thread, so a reconciliation round waiting
 * on a slow API stopped the sweep, the one path that converges while Kafka or the relay is down.
 * With a pool as large as the number of tasks, and fixed-delay tasks never overlapping themselves,
 * a due task always finds a free thread.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class Agenda implements SchedulingConfigurer {

  /** The sweep, reconciliation and retention. */
  static final int TAREFAS = 3;

  private static final Logger log = LoggerFactory.getLogger(Agenda.class);

  private final AplicadorProperties propriedades;
  private final Varredura varredura;
  private final Reconciliacao reconciliacao;
  private final Retencao retencao;
  private final ThreadPoolTaskScheduler agendador;

  /** The scheduler of the periodic tasks, tied to the context's lifecycle. */
  @Bean
  static ThreadPoolTaskScheduler agendaDoAplicador() {
    var agendador = new ThreadPoolTaskScheduler();
    agendador.setPoolSize(TAREFAS);
    agendador.setThreadNamePrefix("agenda-");
    return agendador;
  }

  Agenda(
      AplicadorProperties propriedades,
      Varredura varredura,
      Retencao retencao,
      JdbcClient jdbc,
      DataSource dataSource,
      TransactionTemplate transacao,
      CaixaDeEntrada caixaDeEntrada,
      AplicadorDeEventos aplicador,
      MetricasDoAplicador metricas,
      Clock relogio,
      MeterRegistry registro,
      ThreadPoolTaskScheduler agendaDoAplicador) {
    this.propriedades = propriedades;
    this.agendador = agendaDoAplicador;
    this.varredura = varredura;
    this.retencao = retencao;
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
                config,
                relogio,
                registro)
            : null;
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tarefas) {
    tarefas.setTaskScheduler(agendador);
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
          reconciliacao::reconciliarAgendada, propriedades.reconciliacao().intervalo());
    }
    var politica = propriedades.retencao();
    if (!politica.ligada()) {
      log.warn("retention is off: personal data is kept for ever (aplicador.retencao.ligada)");
    } else {
      log.info(
          "retention every {}: inbox payloads after {}, quarantined bodies after {}, sent outbox"
              + " rows after {}",
          politica.intervalo(),
          politica.caixaDeEntrada(),
          politica.quarentena(),
          politica.outbox());
      tarefas.addFixedDelayTask(retencao::executarAgendada, politica.intervalo());
    }
  }
}
