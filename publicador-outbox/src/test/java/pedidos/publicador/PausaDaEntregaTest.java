package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import pedidos.publicador.entrega.EntregaDosEfeitos;
import pedidos.publicador.entrega.ModoDaEntrega;
import pedidos.publicador.supervisao.Papel;
import pedidos.testes.InfraDeTeste;

/**
 * An operator pauses delivery to the picking system (as the applier's page and commands do: one
 * row, {@code entrega_dos_efeitos}), and the active relay is restarted while it is paused: effects
 * stay unsent in the outbox, none reaches {@code separacao.efeitos} (neither from the stream nor
 * from the fallback), while inbox rows still reach {@code loja.eventos} and the slot still
 * advances. On resume the backlog arrives whole, each order's effects in the order they were born,
 * at no more than the configured rate; then the stream delivers effects again.
 */
class PausaDaEntregaTest {

  private static final String SLOT = "teste_pausa";
  private static final int EFEITOS_POR_SEGUNDO = 4;

  private final String prefixo = "p" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();

  private static Map<String, String> propriedades(String prefixoDoMotor) {
    Map<String, String> p = RelayDeTeste.propriedades(SLOT, prefixoDoMotor);
    p.put("publicador.entrega.efeitos-por-segundo", String.valueOf(EFEITOS_POR_SEGUNDO));
    p.put("publicador.entrega.intervalo", "200ms");
    // The fallback runs often and finds every row old: a pause must hold it back too.
    p.put("publicador.reenvio.idade", "1s");
    p.put("publicador.reenvio.intervalo", "300ms");
    return p;
  }

  @Test
  void pausadaNadaChegaASeparacaoNemAposReiniciarERetomadaChegaTudoEmOrdemNoRitmo() {
    RelayDeTeste relay = RelayDeTeste.iniciar(propriedades("pausa")).aguardarTransmitindo();
    try (LeitorDeTopico efeitos = LeitorDeTopico.novos(kafka, "separacao.efeitos");
        LeitorDeTopico eventos = LeitorDeTopico.novos(kafka, "loja.eventos")) {
      pausar();
      RelayDeTeste pausado = relay;
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> pausado.bean(EntregaDosEfeitos.class).modo() == ModoDaEntrega.PAUSADA);

      // Order "a" has its interruption stamped earlier than its release (a transaction that waited
      // for the order's lock): it must still arrive after the release.
      inserirEfeito("a", "liberar_separacao", "now()");
      inserirEfeito("a", "interromper_separacao", "now() - interval '1 minute'");
      for (int i = 1; i <= 4; i++) {
        inserirEfeito("b" + i, "liberar_separacao", "now() - interval '2 minutes'");
      }
      BancoDeTeste.inserirEvento(prefixo + "e1", prefixo + "a", "order.canceled", "{}");
      String depoisDasLinhas = lsnAtual();
      await("inbox rows still relayed")
          .atMost(Duration.ofSeconds(20))
          .until(() -> eventos.quantos(prefixo) == 1);
      await("the slot advances past the held effects: no WAL kept for the pause")
          .atMost(Duration.ofSeconds(20))
          .until(() -> slotConfirmouAte(depoisDasLinhas));
      nadaChegaDurante(efeitos, Duration.ofSeconds(2));
      assertThat(BancoDeTeste.naoEnviados(prefixo)).isEqualTo(6);
      assertThat(gauge(relay, "publicador.entrega.pausada")).isEqualTo(1.0);

      // The active relay restarts while paused: the new run reads the state before its first batch.
      relay.close();
      relay = RelayDeTeste.iniciar(propriedades("pausb")).aguardarTransmitindo();
      for (int i = 5; i <= 8; i++) {
        inserirEfeito("b" + i, "liberar_separacao", "now() - interval '2 minutes'");
      }
      BancoDeTeste.inserirEvento(prefixo + "e2", prefixo + "b5", "order.paid", "{}");
      await("inbox rows relayed after the restart")
          .atMost(Duration.ofSeconds(20))
          .until(() -> eventos.quantos(prefixo) == 2);
      nadaChegaDurante(efeitos, Duration.ofSeconds(2));
      assertThat(BancoDeTeste.naoEnviados(prefixo)).isEqualTo(10);
      RelayDeTeste reiniciado = relay;
      assertThat(reiniciado.bean(EntregaDosEfeitos.class).modo()).isEqualTo(ModoDaEntrega.PAUSADA);
      assertThat(gauge(reiniciado, "publicador.entrega.pausada")).isEqualTo(1.0);
      assertThat(gauge(reiniciado, "publicador.entrega.pausa.idade")).isPositive();

      // A standby reads the same state: whichever relay takes over next holds the pause too.
      try (RelayDeTeste reserva = RelayDeTeste.iniciar(propriedades("pausc"))) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () ->
                    reserva.situacao().papel() == Papel.RESERVA
                        && reserva.bean(EntregaDosEfeitos.class).modo() == ModoDaEntrega.PAUSADA);
        assertThat(gauge(reserva, "publicador.entrega.pausada")).isEqualTo(1.0);
      }

      retomar();
      // Born while the backlog drains: it joins the backlog, behind the order's older effects. The
      // "b" orders are older, so the drain reaches order "a" only in its third step, seconds from
      // now; from the stream it would arrive within milliseconds, before "a"'s release.
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> reiniciado.bean(EntregaDosEfeitos.class).modo() == ModoDaEntrega.ESVAZIANDO);
      inserirEfeito("a", "notificar_reembolso", "now()");
      await("the backlog drained")
          .atMost(Duration.ofSeconds(30))
          .until(() -> efeitos.quantos(prefixo) >= 11 && BancoDeTeste.naoEnviados(prefixo) == 0);
      List<ConsumerRecord<String, String>> chegados = doTeste(efeitos);
      List<String> doPedidoA =
          chegados.stream()
              .filter(r -> r.key().equals(prefixo + "a"))
              .map(r -> LeitorDeTopico.valor(r).path("efeito").asString())
              .toList();
      assertThat(doPedidoA)
          .containsExactly("liberar_separacao", "interromper_separacao", "notificar_reembolso");
      assertThat(maisNumSegundo(chegados))
          .as("records within any second, by their send time")
          .isLessThanOrEqualTo(EFEITOS_POR_SEGUNDO);

      // Drained: back to the stream, recorded for every relay to read.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> reiniciado.bean(EntregaDosEfeitos.class).modo() == ModoDaEntrega.AO_VIVO);
      assertThat(
              BancoDeTeste.JDBC
                  .sql("SELECT esvaziada_em IS NOT NULL FROM entrega_dos_efeitos")
                  .query(Boolean.class)
                  .single())
          .isTrue();
      double pelaCdc = publicadasPelaCdc(reiniciado);
      inserirEfeito("vivo", "liberar_separacao", "now()");
      await().atMost(Duration.ofSeconds(10)).until(() -> efeitos.quantos(prefixo + "vivo") == 1);
      assertThat(publicadasPelaCdc(reiniciado)).isGreaterThan(pelaCdc);
    } finally {
      relay.close();
      BancoDeTeste.JDBC
          .sql(
              "UPDATE entrega_dos_efeitos SET pausada = false, pausada_em = NULL,"
                  + " pausada_por = NULL, motivo = NULL, retomada_em = NULL, retomada_por = NULL,"
                  + " esvaziada_em = NULL")
          .update();
      BancoDeTeste.apagarSlot(SLOT);
    }
  }

  private static void pausar() {
    BancoDeTeste.JDBC
        .sql(
            "UPDATE entrega_dos_efeitos SET pausada = true, pausada_em = now(),"
                + " pausada_por = 'teste', motivo = 'maintenance of the warehouse system'")
        .update();
  }

  private static void retomar() {
    BancoDeTeste.JDBC
        .sql(
            "UPDATE entrega_dos_efeitos SET pausada = false, retomada_em = now(),"
                + " retomada_por = 'teste', esvaziada_em = NULL")
        .update();
  }

  private void inserirEfeito(String pedido, String efeito, String criadoEm) {
    BancoDeTeste.JDBC
        .sql(
            "INSERT INTO outbox (pedido_id, efeito, status, total_centavos, criado_em)"
                + " VALUES (?, ?, 'pago', 1, "
                + criadoEm
                + ")")
        .params(prefixo + pedido, efeito)
        .update();
  }

  private static String lsnAtual() {
    return BancoDeTeste.JDBC.sql("SELECT pg_current_wal_lsn()::text").query(String.class).single();
  }

  private static boolean slotConfirmouAte(String lsn) {
    return BancoDeTeste.JDBC
        .sql(
            "SELECT coalesce(confirmed_flush_lsn >= CAST(? AS pg_lsn), false)"
                + " FROM pg_replication_slots WHERE slot_name = ?")
        .params(lsn, SLOT)
        .query(Boolean.class)
        .single();
  }

  private void nadaChegaDurante(LeitorDeTopico efeitos, Duration duracao) {
    await()
        .during(duracao)
        .atMost(duracao.plusSeconds(2))
        .until(() -> efeitos.quantos(prefixo) == 0);
  }

  private List<ConsumerRecord<String, String>> doTeste(LeitorDeTopico efeitos) {
    List<ConsumerRecord<String, String>> doTeste = new ArrayList<>();
    for (ConsumerRecord<String, String> registro : efeitos.registros()) {
      if (registro.key() != null && registro.key().startsWith(prefixo)) {
        doTeste.add(registro);
      }
    }
    return doTeste;
  }

  /** The most records sent within any 1,000 ms, by their timestamps (the producer's send time). */
  private static int maisNumSegundo(List<ConsumerRecord<String, String>> registros) {
    List<Long> instantes = registros.stream().map(ConsumerRecord::timestamp).sorted().toList();
    int mais = 0;
    for (int i = 0; i < instantes.size(); i++) {
      int j = i;
      while (j < instantes.size() && instantes.get(j) < instantes.get(i) + 1000) {
        j++;
      }
      mais = Math.max(mais, j - i);
    }
    return mais;
  }

  private static double gauge(RelayDeTeste relay, String nome) {
    return relay.bean(MeterRegistry.class).get(nome).meter().measure().iterator().next().getValue();
  }

  private static double publicadasPelaCdc(RelayDeTeste relay) {
    return relay
        .bean(MeterRegistry.class)
        .get("publicador.linhas.publicadas")
        .tags("tabela", "outbox", "via", "cdc")
        .counter()
        .count();
  }
}
