package pedidos.publicador;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.infra.UsuarioDoKafka;
import pedidos.publicador.motor.EstadoDoMotor;
import pedidos.publicador.supervisao.Situacao;
import pedidos.publicador.supervisao.SupervisorDoPublicador;
import pedidos.testes.InfraDeTeste;

/**
 * A whole relay (the application's Spring context) started on the JVM's shared infrastructure, so a
 * test can run several, stop one mid-stream, or start one again on the same slot.
 */
final class RelayDeTeste implements AutoCloseable {

  static {
    // Several relays live and die in one JVM: left to Spring Boot, the first context to close would
    // shut logging down for the others. Logback configures itself from logback-test.xml instead.
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
  }

  private final ConfigurableApplicationContext contexto;

  private RelayDeTeste(ConfigurableApplicationContext contexto) {
    this.contexto = contexto;
  }

  /** Short intervals, so that restarts, take-overs and heartbeats happen within a test's time. */
  static Map<String, String> propriedades(String slot, String prefixo) {
    InfraLocal infra = InfraLocal.compartilhada();
    PostgresLocal postgres = infra.postgres();
    InfraDeTeste.prepararUmaVez(postgres);
    Map<String, String> p = new LinkedHashMap<>();
    p.put("spring.main.banner-mode", "off");
    p.put("spring.datasource.url", postgres.jdbcUrl());
    p.put("spring.datasource.username", PapelNoBanco.PUBLICADOR.nome());
    p.put("spring.datasource.password", PapelNoBanco.PUBLICADOR.senhaLocal());
    p.put("spring.kafka.bootstrap-servers", infra.kafka().bootstrapServers());
    p.putAll(InfraDeTeste.propriedadesDoKafka(UsuarioDoKafka.ADMINISTRADOR));
    p.put("publicador.assinatura", InfraDeTeste.ASSINATURA_LOCAL);
    p.put("publicador.slot", slot);
    p.put("publicador.prefixo", prefixo);
    p.put("publicador.debezium.intervalo-de-heartbeat", "300ms");
    p.put("publicador.debezium.intervalo-de-flush", "200ms");
    p.put("publicador.trava.intervalo", "200ms");
    p.put("publicador.reinicio.inicial", "200ms");
    p.put("publicador.reinicio.maxima", "2s");
    // Out of the way unless a test is about it.
    p.put("publicador.reenvio.idade", "1h");
    p.put("publicador.reenvio.intervalo", "1s");
    return p;
  }

  static RelayDeTeste iniciar(String slot, String prefixo) {
    return iniciar(propriedades(slot, prefixo));
  }

  static RelayDeTeste iniciar(Map<String, String> propriedades) {
    // As command-line arguments: they win over application.properties, defaults would not.
    List<String> argumentos = new ArrayList<>();
    propriedades.forEach((chave, valor) -> argumentos.add("--" + chave + "=" + valor));
    return new RelayDeTeste(
        new SpringApplicationBuilder(PublicadorApplication.class)
            .web(WebApplicationType.NONE)
            .run(argumentos.toArray(String[]::new)));
  }

  <T> T bean(Class<T> tipo) {
    return contexto.getBean(tipo);
  }

  SupervisorDoPublicador supervisor() {
    return bean(SupervisorDoPublicador.class);
  }

  Situacao situacao() {
    return supervisor().situacao();
  }

  /** Waits until the engine polls the stream: rows committed from now on are captured. */
  RelayDeTeste aguardarTransmitindo() {
    await("relay streaming")
        .atMost(Duration.ofSeconds(60))
        .until(() -> situacao().motor() == EstadoDoMotor.TRANSMITINDO);
    return this;
  }

  @Override
  public void close() {
    contexto.close();
  }
}
