package pedidos.aplicador.ouvinte;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.stereotype.Component;
import pedidos.aplicador.configuracao.AplicadorProperties;

/**
 * Checks the topics before the listener reads (a phase before the listener containers), and refuses
 * to start on what the applier cannot live with ({@link ExameDosTopicos}).
 *
 * <p>Services start in any order (compose starts the relay and the applier together), and the relay
 * creates and corrects the topics only once it has the database and the lease: so a start that
 * finds them missing or wrong waits for the relay, up to {@code aplicador.topicos.espera}, checking
 * every {@code aplicador.topicos.intervalo} and logging what differs, before it refuses with every
 * difference and what to do. A restart policy then starts it again; the log says why each time.
 *
 * <p>A Kafka that does not answer is not a reason to refuse: the sweep applies from the inbox
 * without Kafka, as it does when Kafka fails later, and the listener reads once Kafka is back. The
 * start logs that the topics went unchecked. Not run for the replay command, whose listener does
 * not start and which reads the topic it is given.
 */
@Component
class VerificacaoDosTopicos implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(VerificacaoDosTopicos.class);

  /** Each answer of the broker, at most. */
  static final Duration ESPERA_DO_KAFKA = Duration.ofSeconds(10);

  private final KafkaAdmin admin;
  private final AplicadorProperties propriedades;
  private final boolean ouvinteArranca;
  private final Duration esperaDoKafka;
  private volatile boolean verificado;

  @Autowired
  VerificacaoDosTopicos(KafkaAdmin admin, AplicadorProperties propriedades, KafkaProperties kafka) {
    this(admin, propriedades, kafka.getListener().isAutoStartup(), ESPERA_DO_KAFKA);
  }

  VerificacaoDosTopicos(
      KafkaAdmin admin,
      AplicadorProperties propriedades,
      boolean ouvinteArranca,
      Duration esperaDoKafka) {
    this.admin = admin;
    this.propriedades = propriedades;
    this.ouvinteArranca = ouvinteArranca;
    this.esperaDoKafka = esperaDoKafka;
  }

  @Override
  public void start() {
    verificar();
    verificado = true;
  }

  /**
   * Returns once the topics are fit (logging what it tolerates) or Kafka does not answer; throws,
   * with every difference and what to do, when they are still unfit after the wait.
   */
  void verificar() {
    AplicadorProperties.Topicos topicos = propriedades.topicos();
    Map<String, Object> configuracao = new HashMap<>(admin.getConfigurationProperties());
    configuracao.put(
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) esperaDoKafka.toMillis());
    configuracao.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) esperaDoKafka.toMillis());
    var exame = new ExameDosTopicos(propriedades, esperaDoKafka);
    long prazo = System.nanoTime() + topicos.espera().toNanos();
    List<DiferencaNoTopico> relatadas = List.of();
    try (Admin cliente = Admin.create(configuracao)) {
      while (true) {
        List<DiferencaNoTopico> diferencas;
        try {
          diferencas = exame.examinar(cliente);
        } catch (ExameDosTopicos.KafkaSemResposta e) {
          log.warn(
              "{}: starting without checking {} and {}; the listener reads once Kafka is back,"
                  + " the sweep applies from the inbox meanwhile. The topics are checked at the"
                  + " next start",
              e.getMessage(),
              propriedades.topico(),
              propriedades.topicoDeDescarte());
          return;
        }
        List<DiferencaNoTopico> intoleraveis =
            diferencas.stream().filter(DiferencaNoTopico::intoleravel).toList();
        if (intoleraveis.isEmpty()) {
          diferencas.forEach(d -> log.warn("Topic check: {}", d.descricao()));
          log.info(
              "Topics {} and {} checked: fit for this aplicador",
              propriedades.topico(),
              propriedades.topicoDeDescarte());
          return;
        }
        if (System.nanoTime() - prazo >= 0) {
          throw new IllegalStateException(recusa(diferencas));
        }
        if (!intoleraveis.equals(relatadas)) {
          log.warn(
              "Waiting up to {} for the relay to create or correct the topics. {}. Now: {}",
              topicos.espera(),
              ExameDosTopicos.QUEM_CORRIGE,
              intoleraveis.stream().map(DiferencaNoTopico::descricao).toList());
          relatadas = intoleraveis;
        }
        aguardar(topicos.intervalo());
      }
    }
  }

  private String recusa(List<DiferencaNoTopico> diferencas) {
    StringBuilder texto =
        new StringBuilder("Refusing to start: the topics are not what this aplicador needs, after")
            .append(" waiting ")
            .append(propriedades.topicos().espera())
            .append(" for the relay to correct them. ")
            .append(ExameDosTopicos.QUEM_CORRIGE)
            .append('.');
    for (DiferencaNoTopico diferenca : diferencas) {
      texto
          .append(System.lineSeparator())
          .append(diferenca.intoleravel() ? "  - " : "  - (tolerable) ")
          .append(diferenca.descricao());
    }
    return texto.toString();
  }

  private static void aguardar(Duration intervalo) {
    try {
      Thread.sleep(intervalo.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the topics", e);
    }
  }

  @Override
  public void stop() {
    verificado = false;
  }

  @Override
  public boolean isRunning() {
    return verificado;
  }

  /** Only where the listener starts: the replay command's does not. */
  @Override
  public boolean isAutoStartup() {
    return ouvinteArranca;
  }

  /** Before the listener containers, which start in their default phase. */
  @Override
  public int getPhase() {
    return AbstractMessageListenerContainer.DEFAULT_PHASE - 1;
  }
}
