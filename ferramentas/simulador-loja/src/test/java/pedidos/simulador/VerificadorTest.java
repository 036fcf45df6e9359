package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

/** The verifier against the real PostgreSQL and Kafka, on data a correct system wrote. */
class VerificadorTest {

  private static final Instant INICIO = Instant.parse("2026-11-29T12:00:00Z");

  private final FormatoDaLoja formato = new FormatoDaLoja();

  /** What one run left behind: the truth, what was acknowledged and served, and the tables. */
  private record Cenario(
      List<PedidoGerado> pedidos,
      PlanoDeEntrega plano,
      RegistroDeEntregas registro,
      VistasServidas vistas,
      BancoDeTeste banco,
      String topico) {}

  @Test
  void umSistemaCorretoConverge() throws Exception {
    Cenario cenario = montar(true);
    try (var separacao = separacao(cenario)) {
      Relatorio relatorio =
          verificador(cenario, separacao, true).verificar(null, Duration.ofSeconds(30), n -> {});

      assertThat(relatorio.divergencias()).isEmpty();
      assertThat(relatorio.ok()).isTrue();
      assertThat(relatorio.pedidos()).isEqualTo(cenario.pedidos().size());
      assertThat(relatorio.pedidosComFatoDaApi()).isEqualTo(cenario.pedidos().size());
      assertThat(relatorio.pedidosReconciliados()).as("lost events recovered").isPositive();
      assertThat(relatorio.resultados())
          .containsKeys("aplicado", "evento_antigo", "regressao_de_terminal")
          .doesNotContainKey("pendente");
      assertThat(relatorio.efeitosNoOutbox())
          .containsKeys("liberar_separacao", "interromper_separacao", "notificar_reembolso");
      long linhas = relatorio.efeitosNoOutbox().values().stream().mapToLong(Long::longValue).sum();
      assertThat(relatorio.separacao().efeitos()).isEqualTo(linhas);
      assertThat(relatorio.texto()).startsWith("CONVERGED").doesNotContain("divergences:");
    }
  }

  /**
   * An applier killed between reading a page of the orders API and committing it never stored what
   * that page served; its next round, from the kept cursor, stored each order's later view. The
   * view served only to the dead round is neither lost nor part of the expected state. A served
   * view that nothing later replaced is reported missing, and so is one replaced only by rounds
   * whose cursor had already passed it (a cursor moved past a view that was never stored).
   */
  @Test
  void umaVistaServidaAUmaRodadaMortaEDepoisSuperadaNaoFaltaMasUmaPuladaFalta() throws Exception {
    Cenario cenario = montar(true);
    PedidoGerado comVistaMorta = cenario.pedidos().get(3);
    VistaDoPedido morta = VistaDoPedido.de(comVistaMorta, comVistaMorta.eventos().get(0));
    assertThat(morta.instante()).isBefore(comVistaMorta.ultimo().ocorridoEm());
    cenario.vistas().registrar(INICIO, List.of(morta));
    try (var separacao = separacao(cenario)) {
      Relatorio comSucessora =
          verificador(cenario, separacao, true).verificar(null, Duration.ofSeconds(30), n -> {});

      assertThat(comSucessora.divergencias()).isEmpty();

      // The same views, but order 5's first view served at the start and its last one only to
      // rounds from after the first: the cursor passed the first view, which was never stored.
      PedidoGerado pulado = cenario.pedidos().get(5);
      VistaDoPedido naoGuardada = VistaDoPedido.de(pulado, pulado.eventos().get(0));
      VistaDoPedido ultimaDoPulado = VistaDoPedido.de(pulado, pulado.ultimo());
      assertThat(naoGuardada.instante()).isBefore(ultimaDoPulado.instante());
      var vistas = new VistasServidas();
      for (VistaDoPedido vista : cenario.vistas().todas()) {
        if (!vista.pedidoId().equals(pulado.id())) {
          vistas.registrar(INICIO, List.of(vista));
        }
      }
      vistas.registrar(INICIO, List.of(naoGuardada));
      vistas.registrar(naoGuardada.instante().plusMillis(1), List.of(ultimaDoPulado));
      PedidoGerado semSucessora = cenario.pedidos().get(11);
      String ultimaVista = VistaDoPedido.de(semSucessora, semSucessora.ultimo()).eventoId();
      cenario
          .banco()
          .executar("DELETE FROM webhook_eventos WHERE evento_id = '" + ultimaVista + "'");
      Cenario comPulo =
          new Cenario(
              cenario.pedidos(),
              cenario.plano(),
              cenario.registro(),
              vistas,
              cenario.banco(),
              cenario.topico());
      Relatorio faltando =
          verificador(comPulo, separacao, true).verificar(null, Duration.ZERO, n -> {});

      assertThat(faltando.divergencias())
          .contains("API view served but not stored: " + ultimaVista)
          .contains("API view served but not stored: " + naoGuardada.eventoId())
          .noneMatch(d -> d.contains(morta.eventoId()));
    }
  }

  @Test
  void apontaCadaDivergencia() throws Exception {
    Cenario cenario = montar(true);
    List<PedidoGerado> pedidos = cenario.pedidos();
    // Fixed by the generator: the first lifecycles come in declaration order.
    PedidoGerado semPagamento = pedidos.get(1);
    PedidoGerado nuncaCancelado = pedidos.get(9);
    assertThat(semPagamento.ciclo()).isEqualTo(Ciclo.CANCELADO_SEM_PAGAMENTO);
    assertThat(nuncaCancelado.ciclo()).isEqualTo(Ciclo.PAGO_ENVIADO);
    String estadoAlterado = pedidos.get(2).id();
    Set<String> usados = new HashSet<>();
    String apagado = confirmado(cenario, 4, usados);
    String desaplicado = confirmado(cenario, 5, usados);
    String veredictoTrocado = confirmado(cenario, 7, usados);
    String comEfeito;
    try (var conexao = cenario.banco().conectar();
        var consulta = conexao.createStatement();
        var linhas =
            consulta.executeQuery(
                "SELECT pedido_id || ':' || efeito FROM outbox ORDER BY pedido_id, efeito LIMIT 1")) {
      linhas.next();
      comEfeito = linhas.getString(1);
    }

    BancoDeTeste banco = cenario.banco();
    banco.executar(
        "UPDATE pedidos SET status = CASE WHEN status = 'criado' THEN 'enviado' ELSE 'criado' END"
            + " WHERE id = '"
            + estadoAlterado
            + "'");
    banco.executar(
        "UPDATE outbox SET enviado_em = NULL WHERE pedido_id || ':' || efeito = '"
            + comEfeito
            + "'");
    banco.executar(
        "INSERT INTO outbox (pedido_id, efeito, enviado_em) VALUES ('"
            + semPagamento.id()
            + "', 'notificar_reembolso', now())");
    banco.executar("DELETE FROM webhook_eventos WHERE evento_id = '" + apagado + "'");
    banco.executar(
        "UPDATE webhook_eventos SET aplicado_em = NULL, resultado = NULL WHERE evento_id = '"
            + desaplicado
            + "'");
    banco.executar(
        "UPDATE webhook_eventos SET resultado = CASE WHEN resultado = 'aplicado'"
            + " THEN 'evento_antigo' ELSE 'aplicado' END WHERE evento_id = '"
            + veredictoTrocado
            + "'");
    banco.executar(
        "INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, aplicado_em, resultado)"
            + " VALUES ('evt_intruso', '"
            + pedidos.get(6).id()
            + "', 'order.paid', '{}', now(), 'aplicado')");
    try (var separacao = separacao(cenario);
        KafkaProducer<String, String> produtor = KafkaDeTeste.produtor()) {
      produtor
          .send(
              KafkaDeTeste.efeito(
                  cenario.topico(),
                  nuncaCancelado.id(),
                  "interromper_separacao",
                  "cancelado",
                  true))
          .get();
      String fantasma = nuncaCancelado.id() + ":interromper_separacao";
      await().atMost(Duration.ofSeconds(30)).until(() -> separacao.efeitos().containsKey(fantasma));

      Relatorio relatorio =
          verificador(cenario, separacao, true).verificar(null, Duration.ZERO, n -> {});

      assertThat(relatorio.ok()).isFalse();
      assertThat(relatorio.divergencias())
          .anyMatch(d -> d.startsWith("order " + estadoAlterado + ": canonical state"))
          .contains("effect without enviado_em: " + comEfeito)
          .contains(
              "order " + semPagamento.id() + ": notificar_reembolso without any reembolsado fact")
          .contains(
              "outbox effect that never reached the picking system: "
                  + semPagamento.id()
                  + ":notificar_reembolso")
          .contains("the picking system received an effect the outbox does not have: " + fantasma)
          .contains("event acknowledged with a 2xx, missing from the inbox: " + apagado)
          .contains("facts not applied yet: 1, for example " + desaplicado)
          .contains("inbox holds a fact the store never produced: evt_intruso")
          .anyMatch(d -> d.startsWith("fact " + veredictoTrocado + ": canonical result "));
      assertThat(relatorio.texto()).startsWith("DIVERGED").contains("divergences:");
    }
  }

  @Test
  void semReconciliacaoOUltimoFatoPerdidoEApontado() throws Exception {
    Cenario cenario = montar(false);
    Set<String> ultimosPerdidos = new HashSet<>();
    for (PedidoGerado pedido : cenario.pedidos()) {
      if (cenario.plano().perdidos().contains(pedido.ultimo())) {
        ultimosPerdidos.add(pedido.id());
      }
    }
    assertThat(ultimosPerdidos).isNotEmpty();
    try (var separacao = separacao(cenario)) {
      Relatorio exigindo =
          verificador(cenario, separacao, true).verificar(null, Duration.ofSeconds(2), n -> {});
      Relatorio semExigir =
          verificador(cenario, separacao, false).verificar(null, Duration.ofSeconds(30), n -> {});

      assertThat(exigindo.divergencias())
          .hasSize(ultimosPerdidos.size())
          .allMatch(d -> d.contains("never reached the system"));
      assertThat(semExigir.divergencias()).isEmpty();
      assertThat(semExigir.pedidosComFatoDaApi()).isZero();
    }
  }

  /**
   * Delivers the plan to the reference system in the plan's order (so shuffled by the delays, with
   * duplicates), every delivery acknowledged; then, when reconciling, serves and stores every
   * order's final view, as a round after the deliveries would.
   */
  private Cenario montar(boolean reconciliar) throws Exception {
    BancoDeTeste banco = BancoDeTeste.novo();
    String topico = KafkaDeTeste.topicoNovo();
    List<PedidoGerado> pedidos = Gerador.gerar(7, 40, "v", INICIO, 1000);
    PlanoDeEntrega plano = PlanoDeEntrega.planejar(pedidos, 7, 0.15, 0.4, Duration.ofMillis(300));
    var registro = new RegistroDeEntregas();
    registro.planejado(plano);
    var vistas = new VistasServidas();
    try (var sistema = new SistemaDeReferencia(banco, topico, false)) {
      for (PlanoDeEntrega.Envio envio : plano.envios()) {
        EventoDaLoja evento = envio.evento();
        registro.enviando(evento.eventoId(), envio.copia(), 1);
        sistema.receber(
            evento.pedidoId(),
            evento.tipo(),
            new String(formato.corpoDoWebhook(evento), StandardCharsets.UTF_8),
            evento.fato());
        registro.confirmado(evento.eventoId());
      }
      if (reconciliar) {
        for (PedidoGerado pedido : pedidos) {
          VistaDoPedido vista = VistaDoPedido.de(pedido, pedido.ultimo());
          vistas.registrar(INICIO, List.of(vista));
          sistema.receber(pedido.id(), "api.order", "{}", vista.fato());
        }
      }
    }
    return new Cenario(pedidos, plano, registro, vistas, banco, topico);
  }

  private static SistemaDeSeparacao separacao(Cenario cenario) {
    return SistemaDeSeparacao.iniciar(
        KafkaDeTeste.bootstrap(),
        KafkaDeTeste.seguranca(),
        cenario.topico(),
        id -> id.startsWith("ord_v_"));
  }

  private static Verificador verificador(
      Cenario cenario, SistemaDeSeparacao separacao, boolean exigirVerdadeFinal) {
    return new Verificador(
        cenario.pedidos(),
        cenario.registro(),
        cenario.vistas(),
        separacao,
        cenario.banco().doSistema(),
        exigirVerdadeFinal,
        Duration.ofMillis(100));
  }

  /** An acknowledged event of an order from {@code desde} on, one per order. */
  private static String confirmado(Cenario cenario, int desde, Set<String> usados) {
    Set<String> confirmados = cenario.registro().confirmados();
    for (PedidoGerado pedido : cenario.pedidos().subList(desde, cenario.pedidos().size())) {
      if (usados.contains(pedido.id())) {
        continue;
      }
      for (EventoDaLoja evento : pedido.eventos()) {
        if (confirmados.contains(evento.eventoId())) {
          usados.add(pedido.id());
          return evento.eventoId();
        }
      }
    }
    throw new IllegalStateException("no acknowledged event");
  }
}
