package pedidos.publicador.motor;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.connect.source.SourceRecord;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.stereotype.Component;
import pedidos.publicador.entrega.EntregaDosEfeitos;
import pedidos.publicador.envio.EnviadorDeMensagens;
import pedidos.publicador.envio.RegistroDeEnvios;
import pedidos.publicador.linhas.FormatoDasMensagens;
import pedidos.publicador.mortos.RegistroDeMortos;

/** Builds and starts runs of the Debezium engine; the supervisor decides when. */
@Component
public class MotorDoPublicador {

  private final ConfiguracaoDoDebezium configuracao;
  private final FormatoDasMensagens formato;
  private final EnviadorDeMensagens enviador;
  private final RegistroDeEnvios registro;
  private final RegistroDeMortos mortos;
  private final ProducerFactory<?, ?> produtores;
  private final EntregaDosEfeitos entrega;
  private final AtomicInteger execucoes = new AtomicInteger();

  MotorDoPublicador(
      ConfiguracaoDoDebezium configuracao,
      FormatoDasMensagens formato,
      EnviadorDeMensagens enviador,
      RegistroDeEnvios registro,
      RegistroDeMortos mortos,
      ProducerFactory<?, ?> produtores,
      EntregaDosEfeitos entrega) {
    this.configuracao = configuracao;
    this.formato = formato;
    this.enviador = enviador;
    this.registro = registro;
    this.mortos = mortos;
    this.produtores = produtores;
    this.entrega = entrega;
  }

  /**
   * Starts a new engine on a thread of its own.
   *
   * @param aoTransmitir called once the engine polls the stream
   * @param vigente whether the lease allows sending now; checked before each batch
   */
  public ExecucaoDoMotor iniciar(Runnable aoTransmitir, BooleanSupplier vigente) {
    // A fresh producer for every run: after a failure the old one may be stuck on a broker that
    // went away or on a producer id the cluster no longer knows.
    produtores.reset();
    enviador.prepararProdutor();
    AtomicBoolean parando = new AtomicBoolean();
    CompletableFuture<Void> fim = new CompletableFuture<>();
    int execucao = execucoes.incrementAndGet();
    Properties propriedades = configuracao.propriedades();
    // Debezium names its JMX beans after topic.prefix: a run started while an earlier one is still
    // stopping (its lease lost, its replication stream silent) would wait for that one to end
    // before it could register them. A tag per run keeps the names apart.
    propriedades.setProperty("custom.metric.tags", "execucao=" + execucao);
    DebeziumEngine<RecordChangeEvent<SourceRecord>> motor =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(propriedades)
            .using(
                new DebeziumEngine.ConnectorCallback() {
                  @Override
                  public void pollingStarted() {
                    aoTransmitir.run();
                  }
                })
            .using(
                (sucesso, mensagem, erro) -> {
                  if (sucesso) {
                    fim.complete(null);
                  } else {
                    fim.completeExceptionally(
                        erro != null ? erro : new IllegalStateException(mensagem));
                  }
                })
            .notifying(
                new ConsumidorDeMudancas(
                    formato, enviador, registro, mortos, parando::get, vigente, entrega))
            .build();
    Thread linha =
        new Thread(
            () -> {
              try {
                motor.run();
              } finally {
                // run() always calls the completion callback; this only guards against a release
                // that would not, which would otherwise leave the supervisor waiting forever.
                fim.completeExceptionally(
                    new IllegalStateException("the engine returned without reporting its end"));
              }
            },
            "publicador-debezium-" + execucao);
    linha.start();
    return new ExecucaoDoMotor(motor, fim, parando);
  }
}
