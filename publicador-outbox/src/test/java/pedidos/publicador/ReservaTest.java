package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import pedidos.publicador.motor.EstadoDoMotor;
import pedidos.publicador.supervisao.Papel;
import pedidos.testes.InfraDeTeste;

/**
 * Two relays on one slot: one streams, the other waits as a hot standby and takes over within
 * seconds when the first one goes away, losing nothing; and a relay whose lease the database drops
 * stops streaming at once. Two Spring contexts in one JVM stand for two processes; their topic
 * prefixes differ only because Debezium's JMX names must be unique per JVM.
 */
class ReservaTest {

  private static final Logger log = LoggerFactory.getLogger(ReservaTest.class);
  private static final String SLOT = "teste_reserva";

  private final String prefixo = "s" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();

  @Test
  void aReservaAssumeQuandoOAtivoCaiENadaSePerde() throws Exception {
    RelayDeTeste ativo = RelayDeTeste.iniciar(SLOT, "resa").aguardarTransmitindo();
    RelayDeTeste reserva = RelayDeTeste.iniciar(SLOT, "resb");
    try (LeitorDeTopico eventos = LeitorDeTopico.novos(kafka, "loja.eventos");
        EscritorDeLotes escritor = new EscritorDeLotes(prefixo, 10, 1, 40)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> reserva.situacao().papel() == Papel.RESERVA);
      Health saude = reserva.bean(PublicadorHealthIndicator.class).health();
      assertThat(saude.getStatus()).isEqualTo(Status.UP);
      assertThat(saude.getDetails())
          .containsAllEntriesOf(Map.of("papel", Papel.RESERVA, "motor", EstadoDoMotor.PARADO));

      ReinicioTest.aguardarProgresso(eventos, escritor, prefixo);
      assertThat(reserva.situacao().execucoes()).as("the standby never started an engine").isZero();

      long antes = System.nanoTime();
      ativo.close();
      reserva.aguardarTransmitindo();
      Duration assumiu = Duration.ofNanos(System.nanoTime() - antes);
      log.info("The standby took over in {} ms", assumiu.toMillis());
      assertThat(assumiu).isLessThan(Duration.ofSeconds(10));
      ReinicioTest.aguardarProgresso(eventos, escritor, prefixo);

      // The database drops the active relay's lease (its session dies): it must stop its engine at
      // once, whichever of the two then takes the lease.
      try (RelayDeTeste outra = RelayDeTeste.iniciar(SLOT, "resa")) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> outra.situacao().papel() == Papel.RESERVA);
        int execucoesAntes = reserva.situacao().execucoes();
        // The lease's session as an operator finds it: named in pg_stat_activity, holding the
        // advisory lock (a standby's lease session holds none).
        BancoDeTeste.JDBC
            .sql(
                """
                SELECT pg_terminate_backend(l.pid)
                  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted
                   AND a.application_name = 'publicador-outbox-trava'
                """)
            .query((rs, n) -> 1)
            .list();
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () ->
                    outra.situacao().motor() == EstadoDoMotor.TRANSMITINDO
                        || (reserva.situacao().execucoes() > execucoesAntes
                            && reserva.situacao().motor() == EstadoDoMotor.TRANSMITINDO));
        assertThat(
                outra.situacao().papel() == Papel.ATIVO ^ reserva.situacao().papel() == Papel.ATIVO)
            .as("exactly one relay holds the lease")
            .isTrue();
        ReinicioTest.aguardarProgresso(eventos, escritor, prefixo);

        escritor.parar();
        Set<String> escritos = escritor.eventos();
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> assertThat(eventos.campos(prefixo, "evento_id")).containsAll(escritos));
      }
    } finally {
      ativo.close();
      reserva.close();
      BancoDeTeste.apagarSlot(SLOT);
    }
  }
}
