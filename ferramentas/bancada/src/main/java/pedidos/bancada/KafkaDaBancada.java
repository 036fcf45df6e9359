package pedidos.bancada;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import pedidos.infra.KafkaLocal;

/**
 * The end-to-end benchmark's broker ({@link BancadaPontaAPonta} starts it): the same single-node
 * KRaft broker as the local run, with the same SASL/SCRAM users and ACLs, alone in its own JVM so
 * that its CPU can be told apart from the services'. It prints {@code KAFKA PRONTO <bootstrap>}
 * once it accepts clients, stops on SIGTERM, and stops by itself if the process that started it
 * dies (so a killed benchmark leaves no broker holding the port).
 */
public final class KafkaDaBancada {

  private KafkaDaBancada() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 1) {
      System.err.println("usage: KafkaDaBancada PORT");
      System.exit(2);
    }
    int porta = Integer.parseInt(args[0]);
    KafkaLocal kafka = KafkaLocal.builder().porta(porta).autenticacao(true).iniciar();
    CountDownLatch fim = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  kafka.close();
                  fim.countDown();
                },
                "kafka-da-bancada-parar"));
    System.out.println("KAFKA PRONTO " + kafka.bootstrapServers());
    System.out.flush();
    ProcessHandle pai = ProcessHandle.current().parent().orElse(null);
    while (!fim.await(1, TimeUnit.SECONDS)) {
      if (pai != null && !pai.isAlive()) {
        System.out.println("the benchmark driver is gone: stopping");
        System.exit(0);
      }
    }
  }
}
