package pedidos.aplicador.retencao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.LinhaDeComandoDeTeste;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.CaixaDeEntrada;
import pedidos.aplicador.aplicacao.EventoAplicado;
import pedidos.aplicador.aplicacao.LeitorDeEventos;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.replay.OpcoesDeReplay;
import pedidos.aplicador.replay.Replay;
import pedidos.aplicador.replay.ResumoDoReplay;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.DobraCanonica;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Fato;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;
import pedidos.infra.InfraLocal;

/**
 * The retention job against the real PostgreSQL: after it ran, an old event redelivered is still a
 * duplicate, a new fact for an old order still folds to the canonical state, and rows it must not
 * touch stay whole.
 *
 * <p>Rows here are made ten years old and the job runs with a clock nine years back, so it touches
 * these rows and never the other test classes' (which are recent, or dated in late 2026).
 */
@Tag("todas-as-versoes-do-postgres")
class RetencaoTest extends ContextoDoAplicador {

  static final Duration DEZ_ANOS = Duration.ofDays(3650);
  static final Clock NOVE_ANOS_ATRAS =
      Clock.fixed(Instant.now().minus(Duration.ofDays(3285)), ZoneOffset.UTC);

  @Autowired AplicadorDeEventos aplicador;
  @Autowired JdbcClient jdbc;
  @Autowired TransactionTemplate transacao;
  @Autowired KafkaTemplate<String, String> kafka;
  @Autowired Replay replay;

  private final String p = "ret-" + UUID.randomUUID().toString().substring(0, 8) + "-";
  private final SimpleMeterRegistry registro = new SimpleMeterRegistry();

  @Test
  void oCorpoRedigidoGuardaSoOQueADobraLeEOVeredictoFica() {
    String pedido = p + "ord";
    gravar(
        "criado",
        pedido,
        "order.created",
        """
        {"id": "%1$s", "type": "order.created", "sequence": 1, "occurred_at": "2026-01-01T10:00:00Z",
         "customer_name": "Ana Lima", "data": {"id": "%2$s", "status": "open", "total_cents": 1990,
         "customer_email": "ana@example.com", "shipping": {"street": "Rua A, 1"}}}
        """);
    // An older email of the same order: the state keeps the newer one, so this one is dropped.
    gravar(
        "antigo",
        pedido,
        "order.created",
        """
        {"id": "%1$s", "type": "order.created", "sequence": 0, "data": {"id": "%2$s",
         "customer_email": "ana.antiga@example.com"}}
        """);
    gravar(
        "invalido",
        pedido,
        "order.paid",
        """
        {"id": "%1$s", "type": "order.paid", "occurred_at": "ontem", "data": {"id": "%2$s",
         "customer_email": "ana@example.com"}}
        """);
    gravar(
        "email-objeto",
        pedido,
        "order.paid",
        """
        {"id": "%1$s", "type": "order.paid", "sequence": 3, "data": {"id": "%2$s",
         "customer_email": {"address": "ana@example.com"}}}
        """);
    gravar(
        "ignorado",
        pedido,
        "order.updated",
        """
        {"id": "%1$s", "type": "order.updated", "sequence": 4, "data": {"id": "%2$s",
         "note": "call ana@example.com"}}
        """);
    gravarComTipo(
        "api",
        pedido,
        LeitorDeEventos.TIPO_DA_API,
        """
        {"id": "%2$s", "status": "paid", "sequence": 2, "updated_at": "2026-01-01T11:00:00Z",
         "total_cents": 1990, "customer_email": "ana@example.com", "phone": "+55 11 5555-0000"}
        """);
    for (String evento :
        List.of("antigo", "criado", "invalido", "email-objeto", "ignorado", "api")) {
      aplicador.aplicar(p + evento, ModoDeAplicacao.NORMAL);
    }
    var antes = inbox(pedido);
    EstadoDoPedido estado = estado(pedido);
    assertThat(estado).isEqualTo(new EstadoDoPedido(Status.PAGO, 2, 1990L, "ana@example.com"));
    envelhecer(pedido);

    ResumoDaRetencao resumo = retencao(500).executar();

    assertThat(
            contar(
                "SELECT count(*) FROM webhook_eventos WHERE recurso_id = ? AND redigido_em IS NOT NULL",
                pedido))
        .isEqualTo(6);
    assertThat(resumo.corposRedigidos()).isGreaterThanOrEqualTo(6);
    assertThat(payload("criado"))
        .isEqualTo(
            json(
                """
                {"id": "%1$s", "type": "order.created", "sequence": 1,
                 "occurred_at": "2026-01-01T10:00:00Z",
                 "data": {"id": "%2$s", "status": "open", "total_cents": 1990,
                          "customer_email": "ana@example.com"}}
                """,
                "criado", pedido));
    assertThat(payload("antigo"))
        .isEqualTo(
            json(
                """
                {"id": "%1$s", "type": "order.created", "sequence": 0, "data": {"id": "%2$s"}}
                """,
                "antigo", pedido));
    assertThat(payload("invalido"))
        .isEqualTo(
            json(
                """
                {"id": "%1$s", "type": "order.paid", "occurred_at": "ontem",
                 "data": {"id": "%2$s", "customer_email": "ana@example.com"}}
                """,
                "invalido", pedido));
    assertThat(payload("email-objeto")).contains("\"customer_email\": false").doesNotContain("@");
    assertThat(payload("ignorado")).doesNotContain("@").doesNotContain("note");
    assertThat(payload("api"))
        .isEqualTo(
            json(
                """
                {"id": "%2$s", "status": "paid", "sequence": 2, "updated_at": "2026-01-01T11:00:00Z",
                 "total_cents": 1990, "customer_email": "ana@example.com"}
                """,
                "api", pedido));

    // Every verdict, the order's state and the reasons stay; re-applying every fact from the
    // redacted payloads (a forced replay) gives them all again, and the reasons too.
    assertThat(veredictos(pedido)).isEqualTo(veredictosDe(antes));
    for (String evento :
        List.of("criado", "antigo", "invalido", "email-objeto", "ignorado", "api")) {
      aplicador.aplicar(p + evento, ModoDeAplicacao.FORCADO);
    }
    assertThat(estado(pedido)).isEqualTo(estado);
    assertThat(veredictos(pedido)).isEqualTo(veredictosDe(antes));
    assertThat(motivo("invalido")).isEqualTo("instante invalido: ontem");
    assertThat(motivo("email-objeto")).startsWith("customer_email invalido");
    assertThat(registro.get("aplicador.retencao.linhas").tag("tabela", "webhook_eventos").counter())
        .extracting(c -> (long) c.count())
        .isEqualTo(resumo.corposRedigidos());

    assertThat(retencao(500).executar().corposRedigidos())
        .as("a second run finds nothing left to redact")
        .isZero();
  }

  @Test
  void umEventoAntigoReentregueAindaEDuplicadoEOutroCorpoEConflito() {
    String pedido = p + "ord";
    String original =
        gravar(
            "e1",
            pedido,
            "order.paid",
            """
            {"id": "%1$s", "type": "order.paid", "sequence": 7, "data": {"id": "%2$s",
             "total_cents": 500, "customer_email": "bia@example.com", "items": [1, 2, 3]}}
            """);
    aplicador.aplicar(p + "e1", ModoDeAplicacao.NORMAL);
    envelhecer(pedido);

    retencao(500).executar();

    assertThat(payload("e1")).doesNotContain("items");
    // The receptor's question for a known id (CaixaDeEntrada.COMPARAR), on the redacted row.
    assertThat(mesmoCorpo("e1", original)).isTrue();
    assertThat(mesmoCorpo("e1", original.replace(", ", ",").replace(": ", ":")))
        .as("the same body as jsonb, written otherwise")
        .isTrue();
    assertThat(mesmoCorpo("e1", original.replace("bia@", "eva@"))).isFalse();
    assertThat(mesmoCorpo("e1", payload("e1")))
        .as("the redacted payload itself is not the body the store sent")
        .isFalse();
    // The applier's own insert path (the listener, replay) keeps the redacted row.
    assertThat(
            new CaixaDeEntrada(jdbc)
                .guardarSeAusente(
                    new RegistroDeEvento(p + "e1", pedido, "order.paid", original, null)))
        .isFalse();
    assertThat(payload("e1")).doesNotContain("items");
  }

  @Test
  void umFatoNovoDeUmPedidoAntigoDobraParaOEstadoCanonico() {
    // Twin orders get the same facts: one is redacted before its last fact, the other never. The
    // state, every verdict and the effects must come out the same, and the state must be the
    // canonical fold of the facts as the store sent them.
    Random aleatorio = new Random(14);
    String[] tipos = {
      "order.created", "order.paid", "order.shipped", "order.canceled", "order.refunded"
    };
    String[] statusDaApi = {"open", "paid", "shipped", "canceled", "refunded"};
    for (int n = 0; n < 60; n++) {
      String email = aleatorio.nextInt(5) == 0 ? null : "cliente" + n + "@example.com";
      int fatos = 2 + aleatorio.nextInt(4);
      List<String[]> historia = new ArrayList<>();
      List<Fato> canonicos = new ArrayList<>();
      for (int f = 0; f < fatos; f++) {
        int s = aleatorio.nextInt(5);
        int sequencia = 1 + aleatorio.nextInt(6);
        Long total = aleatorio.nextBoolean() ? null : 100L * (1 + aleatorio.nextInt(50));
        String oEmail = aleatorio.nextInt(3) == 0 ? null : email;
        boolean daApi = aleatorio.nextInt(5) == 0;
        historia.add(
            new String[] {
              daApi ? LeitorDeEventos.TIPO_DA_API : tipos[s],
              daApi
                  ? """
                    {"id": "%%2$s", "status": "%s", "sequence": %d, "total_cents": %s,
                     "customer_email": %s, "address": "Rua %d"}
                    """
                      .formatted(statusDaApi[s], sequencia, total, texto(oEmail), n)
                  : """
                    {"id": "%%1$s", "type": "%s", "sequence": %d, "name": "Cliente %d",
                     "data": {"id": "%%2$s", "total_cents": %s, "customer_email": %s}}
                    """
                      .formatted(tipos[s], sequencia, n, total, texto(oEmail))
            });
        canonicos.add(new Fato("f" + f, Status.values()[s], sequencia, total, oEmail));
      }
      String redigido = p + "r" + n;
      String controle = p + "c" + n;
      for (String pedido : List.of(redigido, controle)) {
        for (int f = 0; f < fatos - 1; f++) {
          gravarComTipo(pedido + "-f" + f, pedido, historia.get(f)[0], historia.get(f)[1]);
          aplicador.aplicar(p + pedido + "-f" + f, ModoDeAplicacao.NORMAL);
        }
      }
      envelhecer(redigido);
      retencao(500).executar();
      assertThat(
              contar(
                  "SELECT count(*) FROM webhook_eventos WHERE recurso_id = ?"
                      + " AND redigido_em IS NOT NULL AND NOT payload::text LIKE '%Cliente%'"
                      + " AND NOT payload::text LIKE '%Rua%'",
                  redigido))
          .as("order %d's facts so far are redacted", n)
          .isEqualTo(fatos - 1);
      for (String pedido : List.of(redigido, controle)) {
        int f = fatos - 1;
        gravarComTipo(pedido + "-f" + f, pedido, historia.get(f)[0], historia.get(f)[1]);
        aplicador.aplicar(p + pedido + "-f" + f, ModoDeAplicacao.NORMAL);
      }

      assertThat(estado(redigido)).as("order %d", n).isEqualTo(estado(controle));
      assertThat(veredictos(redigido)).as("order %d", n).isEqualTo(veredictos(controle));
      assertThat(efeitos(redigido)).as("order %d", n).isEqualTo(efeitos(controle));
      assertThat(estado(redigido))
          .as("order %d, canonical", n)
          .isEqualTo(DobraCanonica.dobrar(canonicos).estado());
    }
  }

  @Test
  void umPedidoOcupadoEPuladoSemEsperaERedigidoNaRodadaSeguinte() throws Exception {
    String ocupado = p + "ocupado";
    String livre = p + "livre";
    for (String pedido : List.of(ocupado, livre)) {
      gravar(
          "e-" + pedido,
          pedido,
          "order.paid",
          """
          {"id": "%1$s", "type": "order.paid", "sequence": 1, "data": {"id": "%2$s",
           "customer_email": "x@example.com", "extra": 1}}
          """);
      aplicador.aplicar(p + "e-" + pedido, ModoDeAplicacao.NORMAL);
      envelhecer(pedido);
    }
    // An apply of the order in progress holds its advisory lock.
    try (Connection apply = InfraLocal.compartilhada().postgres().dataSource().getConnection()) {
      apply.setAutoCommit(false);
      try (var comando =
          apply.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
        comando.setString(1, ocupado);
        comando.execute();
      }

      long inicio = System.nanoTime();
      retencao(500).executar();
      assertThat(Duration.ofNanos(System.nanoTime() - inicio))
          .as("it never waits for the order")
          .isLessThan(Duration.ofSeconds(5));
      assertThat(payload("e-" + livre)).doesNotContain("extra");
      assertThat(payload("e-" + ocupado)).contains("extra");
      apply.rollback();
    }

    retencao(500).executar();
    assertThat(payload("e-" + ocupado)).doesNotContain("extra");
  }

  @Test
  void variasInstanciasAoMesmoTempoRedigemCadaLinhaUmaVezSemErro() throws Exception {
    int linhas = 3000;
    comoAdministrador()
        .sql(
            """
            INSERT INTO webhook_eventos
                   (evento_id, recurso_id, tipo, payload, recebido_em, aplicado_em, resultado)
            SELECT :p || 'm' || i, :p || 'm-ord' || (i % 700), 'order.paid',
                   jsonb_build_object('id', :p || 'm' || i, 'type', 'order.paid', 'sequence', i,
                                      'data', jsonb_build_object('id', :p || 'm-ord' || (i % 700),
                                                                 'customer_email', 'm@example.com',
                                                                 'extra', repeat('x', 200))),
                   now() - make_interval(days => 3650), now(), 'aplicado'
              FROM generate_series(1, :linhas) AS i
            """)
        .param("p", p)
        .param("linhas", linhas)
        .update();
    // The database's clock: redigido_em is its now() of the batch's transaction.
    java.sql.Timestamp inicio =
        jdbc.sql("SELECT clock_timestamp()").query(java.sql.Timestamp.class).single();
    int instancias = 3;
    ExecutorService threads = Executors.newFixedThreadPool(instancias);
    try {
      CountDownLatch largada = new CountDownLatch(1);
      List<Future<ResumoDaRetencao>> rodadas = new ArrayList<>();
      for (int i = 0; i < instancias; i++) {
        Retencao instancia = retencao(100);
        Callable<ResumoDaRetencao> rodada =
            () -> {
              largada.await();
              return instancia.executar();
            };
        rodadas.add(threads.submit(rodada));
      }
      largada.countDown();
      long redigidos = 0;
      int trabalharam = 0;
      for (Future<ResumoDaRetencao> rodada : rodadas) {
        ResumoDaRetencao resumo = rodada.get(2, TimeUnit.MINUTES);
        redigidos += resumo.corposRedigidos();
        trabalharam += resumo.corposRedigidos() > 0 ? 1 : 0;
      }
      assertThat(contar("SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ?", p + "m%"))
          .isEqualTo(linhas);
      assertThat(
              contar(
                  "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ?"
                      + " AND payload->'data'->'extra' IS NOT NULL",
                  p + "m%"))
          .isZero();
      assertThat(
              contar(
                  "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ?"
                      + " AND redigido_em IS NOT NULL",
                  p + "m%"))
          .isEqualTo(linhas);
      long redigidasNaJanela =
          jdbc.sql("SELECT count(*) FROM webhook_eventos WHERE redigido_em >= ?")
              .param(inicio)
              .query(Long.class)
              .single();
      assertThat(redigidos)
          .as("the instances together redacted each row once")
          .isEqualTo(redigidasNaJanela);
      assertThat(trabalharam).as("the instances shared the work").isGreaterThan(1);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void quarentenaAntigaSaiEOutboxEnviadoSaiMenosAChaveQueImpedeUmaSegundaLiberacao() {
    JdbcClient administrador = comoAdministrador();
    for (String sufixo : List.of("velho", "novo")) {
      administrador
          .sql(
              """
              INSERT INTO webhook_quarentena (corpo, motivo, recebido_em, ultimo_recebimento_em)
              VALUES (convert_to(:corpo, 'UTF8'), 'payload nao e JSON', :quando, :quando)
              """)
          .param("corpo", "{not json " + p + sufixo + " c@example.com")
          .param(
              "quando",
              java.sql.Timestamp.from(
                  sufixo.equals("velho") ? Instant.now().minus(DEZ_ANOS) : Instant.now()))
          .update();
    }
    String terminal = p + "terminal";
    String aberto = p + "aberto";
    String naoEnviado = p + "nao-enviado";
    String recente = p + "recente";
    fatos(terminal, "order.paid", "order.canceled");
    fatos(aberto, "order.paid", "order.shipped");
    fatos(naoEnviado, "order.paid");
    fatos(recente, "order.paid");
    administrador
        .sql(
            "UPDATE outbox SET enviado_em = now() - make_interval(days => 3650)"
                + " WHERE pedido_id IN (?, ?)")
        .params(terminal, aberto)
        .update();
    administrador
        .sql("UPDATE outbox SET enviado_em = now() WHERE pedido_id = ?")
        .param(recente)
        .update();
    assertThat(efeitos(terminal)).containsExactly("interromper_separacao", "liberar_separacao");

    ResumoDaRetencao resumo = retencao(500).executar();

    assertThat(
            contar(
                "SELECT count(*) FROM webhook_quarentena WHERE convert_from(corpo, 'UTF8') LIKE ?",
                "%" + p + "velho%"))
        .isZero();
    assertThat(
            contar(
                "SELECT count(*) FROM webhook_quarentena WHERE convert_from(corpo, 'UTF8') LIKE ?",
                "%" + p + "novo%"))
        .isOne();
    assertThat(resumo.quarentenaApagada()).isGreaterThanOrEqualTo(1);
    assertThat(efeitos(terminal)).as("a terminal order's effects are all gone").isEmpty();
    assertThat(efeitos(aberto)).containsExactly("liberar_separacao");
    assertThat(emailNoOutbox(aberto)).as("the key is kept, without the email").isNull();
    assertThat(emailNoOutbox(naoEnviado)).isEqualTo("c@example.com");
    assertThat(emailNoOutbox(recente)).isEqualTo("c@example.com");
    assertThat(resumo.outboxApagado()).isEqualTo(2);
    assertThat(resumo.outboxEmailsRemovidos()).isEqualTo(1);

    // The store moves the shipped order back to paid, years later: the kept key stops a second
    // release of its picking.
    gravar(
        "volta",
        aberto,
        "order.paid",
        """
        {"id": "%1$s", "type": "order.paid", "sequence": 9, "data": {"id": "%2$s"}}
        """);
    var aplicado = aplicador.aplicar(p + "volta", ModoDeAplicacao.NORMAL);
    assertThat(aplicado).map(EventoAplicado::resultado).contains(Resultado.APLICADO);
    assertThat(aplicado.orElseThrow().efeitos()).isEmpty();
    assertThat(estado(aberto).status()).isEqualTo(Status.PAGO);
    assertThat(retencao(500).executar().outboxEmailsRemovidos())
        .as("the kept key left the job's index: it is not looked at again")
        .isZero();
  }

  @Test
  void oReplayDoQueRestaNoKafkaDepoisDaRetencaoNaoRegrideNemDuplicaEfeitos() throws Exception {
    Instant inicio = Instant.now().minusSeconds(1);
    String recebidoEm = Instant.now().minus(DEZ_ANOS).toString();
    Random aleatorio = new Random(41);
    List<String> pedidos = new ArrayList<>();
    int eventos = 0;
    for (int n = 0; n < 12; n++) {
      String pedido = p + "k" + n;
      pedidos.add(pedido);
      List<String> ciclo =
          new ArrayList<>(
              List.of(
                  "order.created",
                  "order.paid",
                  List.of("order.shipped", "order.canceled", "order.refunded").get(n % 3)));
      java.util.Collections.shuffle(ciclo, aleatorio);
      for (String tipo : ciclo) {
        int sequencia =
            List.of(
                    "order.created",
                    "order.paid",
                    "order.shipped",
                    "order.canceled",
                    "order.refunded")
                .indexOf(tipo);
        String eventoId = pedido + "-" + tipo;
        kafka.send(
            Assinados.registro(
                "loja.eventos",
                pedido,
                """
                {"evento_id": "%1$s", "recurso_id": "%2$s", "tipo": "%3$s",
                 "payload": {"id": "%1$s", "type": "%3$s", "sequence": %4$d,
                             "data": {"id": "%2$s", "total_cents": 4990,
                                      "customer_email": "k%5$d@example.com",
                                      "address": "Rua %5$d"}},
                 "recebido_em": "%6$s"}
                """
                    .formatted(eventoId, pedido, tipo, sequencia, n, recebidoEm)));
        eventos++;
      }
    }
    kafka.flush();
    int esperados = eventos;
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                contar(
                        "SELECT count(*) FROM webhook_eventos WHERE recurso_id LIKE ?"
                            + " AND aplicado_em IS NOT NULL",
                        p + "k%")
                    == esperados);
    comoAdministrador()
        .sql(
            "UPDATE outbox SET enviado_em = now() - make_interval(days => 3650)"
                + " WHERE pedido_id LIKE ?")
        .param(p + "k%")
        .update();
    var pedidosAntes = linhas(PEDIDOS_DO_TESTE);

    ResumoDaRetencao retida = retencao(500).executar();

    assertThat(
            contar(
                "SELECT count(*) FROM webhook_eventos WHERE recurso_id LIKE ?"
                    + " AND redigido_em IS NOT NULL AND payload::text NOT LIKE '%Rua%'",
                p + "k%"))
        .isEqualTo(esperados);
    assertThat(retida.outboxApagado()).as("terminal orders' effects").isPositive();
    assertThat(retida.outboxEmailsRemovidos()).as("open orders' kept keys").isPositive();
    assertThat(linhas(PEDIDOS_DO_TESTE)).isEqualTo(pedidosAntes);
    var inboxDepois = linhas(INBOX_DO_TESTE);
    var outboxDepois = linhas(OUTBOX_DO_TESTE);

    ResumoDoReplay resumo =
        replay.executar(new OpcoesDeReplay(null, List.of(), null, inicio, null, null), silencio());

    assertThat(resumo.lidos()).isGreaterThanOrEqualTo(esperados);
    assertThat(resumo.restaurados()).as("every event is still in the inbox").isZero();
    assertThat(linhas(PEDIDOS_DO_TESTE)).as("no state regressed").isEqualTo(pedidosAntes);
    assertThat(linhas(INBOX_DO_TESTE))
        .as("rows stay redacted, verdicts stay")
        .isEqualTo(inboxDepois);
    assertThat(linhas(OUTBOX_DO_TESTE))
        .as("no deleted effect comes back, none is added")
        .isEqualTo(outboxDepois);
  }

  @Test
  void oComandoReterFazUmaPassagemEDizOQueMudou() {
    comoAdministrador()
        .sql(
            """
            INSERT INTO webhook_eventos
                   (evento_id, recurso_id, tipo, payload, recebido_em, aplicado_em, resultado)
            SELECT :p || 'cmd' || i, :p || 'cmd-ord', 'order.paid',
                   jsonb_build_object('id', :p || 'cmd' || i, 'type', 'order.paid',
                                      'data', jsonb_build_object('id', :p || 'cmd-ord', 'extra', i)),
                   now() - make_interval(days => 3650), now(), 'aplicado'
              FROM generate_series(1, 5) AS i
            """)
        .param("p", p)
        .update();
    var postgres = InfraLocal.compartilhada().postgres();
    Map<String, String> ambiente = new HashMap<>();
    ambiente.put("SPRING_DATASOURCE_URL", postgres.jdbcUrl());
    ambiente.put("SPRING_DATASOURCE_USERNAME", pedidos.infra.PapelNoBanco.APLICADOR.nome());
    ambiente.put("SPRING_DATASOURCE_PASSWORD", pedidos.infra.PapelNoBanco.APLICADOR.senhaLocal());
    // Nine years: these rows and nothing of the other tests.
    ambiente.put("APLICADOR_RETENCAO_CAIXA_DE_ENTRADA", "3285d");
    ambiente.put("APLICADOR_RETENCAO_QUARENTENA", "3285d");
    ambiente.put("APLICADOR_RETENCAO_OUTBOX", "3285d");
    ambiente.put("APLICADOR_RETENCAO_LOTE", "2");

    var execucao = LinhaDeComandoDeTeste.executar(ambiente, "reter");

    assertThat(execucao.codigo()).as(execucao.erro()).isZero();
    assertThat(execucao.saida())
        .startsWith("retention pass: redacted ")
        .contains("batch(es) of up to 2 rows");
    assertThat(
            contar(
                "SELECT count(*) FROM webhook_eventos WHERE recurso_id = ? AND redigido_em IS NULL",
                p + "cmd-ord"))
        .isZero();

    ambiente.put("APLICADOR_RETENCAO_OUTBOX", "30");
    var semUnidade = LinhaDeComandoDeTeste.executar(ambiente, "reter");
    assertThat(semUnidade.codigo()).as("30 without a unit is 30 ms: refused").isEqualTo(2);
    assertThat(semUnidade.erro())
        .contains("aplicador.retencao.outbox")
        .contains("write the unit: 30d");

    ambiente.put("SPRING_DATASOURCE_URL", "jdbc:postgresql://127.0.0.1:1/nenhum");
    ambiente.put("APLICADOR_RETENCAO_OUTBOX", "30d");
    var semBanco = LinhaDeComandoDeTeste.executar(ambiente, "reter");
    assertThat(semBanco.codigo()).as("the database is down").isEqualTo(3);
    assertThat(semBanco.erro()).startsWith("reter cannot use the database (nothing was done): ");
  }

  // --- helpers

  private static final String PEDIDOS_DO_TESTE =
      "SELECT id, status, versao_origem, total_centavos, cliente_email FROM pedidos"
          + " WHERE id LIKE ? ORDER BY id";
  private static final String INBOX_DO_TESTE =
      "SELECT evento_id, payload::text, resultado, motivo, redigido_em IS NOT NULL AS redigido"
          + " FROM webhook_eventos WHERE recurso_id LIKE ? ORDER BY evento_id";
  private static final String OUTBOX_DO_TESTE =
      "SELECT pedido_id, efeito, status, total_centavos, cliente_email, enviado_em FROM outbox"
          + " WHERE pedido_id LIKE ? ORDER BY pedido_id, efeito";

  private List<Map<String, Object>> linhas(String sql) {
    return jdbc.sql(sql).param(p + "k%").query().listOfRows();
  }

  private static java.io.PrintWriter silencio() {
    return new java.io.PrintWriter(new java.io.StringWriter());
  }

  Retencao retencao(int lote) {
    return new Retencao(
        jdbc,
        transacao,
        new AplicadorProperties.Retencao(
            true,
            Duration.ofDays(30),
            Duration.ofDays(30),
            Duration.ofDays(30),
            lote,
            Duration.ofHours(1),
            Duration.ZERO),
        new MetricasDoAplicador(registro),
        NOVE_ANOS_ATRAS);
  }

  /** Stores an event whose payload is {@code modelo} with %1$s its id and %2$s its order. */
  private String gravar(String evento, String pedido, String tipo, String modelo) {
    return gravarComTipo(evento, pedido, tipo, modelo);
  }

  private String gravarComTipo(String evento, String pedido, String tipo, String modelo) {
    String payload = modelo.formatted(p + evento, pedido).strip();
    jdbc.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
            VALUES (?, ?, ?, ?::jsonb)
            """)
        .params(p + evento, pedido, tipo, payload)
        .update();
    return payload;
  }

  private void fatos(String pedido, String... tipos) {
    for (int i = 0; i < tipos.length; i++) {
      String evento = pedido.substring(p.length()) + "-" + i;
      gravar(
          evento,
          pedido,
          tipos[i],
          """
          {"id": "%%1$s", "type": "%s", "sequence": %d, "data": {"id": "%%2$s",
           "total_cents": 990, "customer_email": "c@example.com"}}
          """
              .formatted(tipos[i], i + 1));
      aplicador.aplicar(p + evento, ModoDeAplicacao.NORMAL);
    }
  }

  /** The order's inbox rows received ten years ago, as an old order's are. */
  private void envelhecer(String pedido) {
    comoAdministrador()
        .sql(
            "UPDATE webhook_eventos SET recebido_em = now() - make_interval(days => 3650)"
                + " WHERE recurso_id = ?")
        .param(pedido)
        .update();
  }

  private String payload(String evento) {
    return jdbc.sql("SELECT payload::text FROM webhook_eventos WHERE evento_id = ?")
        .param(p + evento)
        .query(String.class)
        .single();
  }

  private String motivo(String evento) {
    return jdbc.sql("SELECT motivo FROM webhook_eventos WHERE evento_id = ?")
        .param(p + evento)
        .query(String.class)
        .single();
  }

  /** The modelo as PostgreSQL writes the jsonb. */
  private String json(String modelo, String evento, String pedido) {
    return jdbc.sql("SELECT CAST(? AS jsonb)::text")
        .param(modelo.formatted(p + evento, pedido))
        .query(String.class)
        .single();
  }

  private boolean mesmoCorpo(String evento, String corpo) {
    return jdbc.sql(
            "SELECT mesmo_corpo(payload, payload_sha256, CAST(? AS jsonb)) FROM webhook_eventos"
                + " WHERE evento_id = ?")
        .params(corpo, p + evento)
        .query(Boolean.class)
        .single();
  }

  private List<Map<String, Object>> inbox(String pedido) {
    return jdbc.sql(
            "SELECT evento_id, resultado, motivo FROM webhook_eventos WHERE recurso_id = ?"
                + " ORDER BY evento_id")
        .param(pedido)
        .query()
        .listOfRows();
  }

  private Map<String, String> veredictos(String pedido) {
    Map<String, String> veredictos = new HashMap<>();
    for (String[] v : veredictosPorFato(pedido)) {
      veredictos.put(v[0], v[1]);
    }
    return veredictos;
  }

  /** Verdicts by the event id without its order's part, so twin orders compare. */
  private List<String[]> veredictosPorFato(String pedido) {
    return jdbc.sql("SELECT evento_id, resultado FROM webhook_eventos WHERE recurso_id = ?")
        .param(pedido)
        .query(
            (rs, n) ->
                new String[] {
                  rs.getString(1).substring(rs.getString(1).lastIndexOf('-') + 1), rs.getString(2)
                })
        .list();
  }

  private static Map<String, String> veredictosDe(List<Map<String, Object>> linhas) {
    Map<String, String> veredictos = new HashMap<>();
    for (var linha : linhas) {
      String id = (String) linha.get("evento_id");
      veredictos.put(id.substring(id.lastIndexOf('-') + 1), (String) linha.get("resultado"));
    }
    return veredictos;
  }

  private EstadoDoPedido estado(String pedido) {
    return jdbc.sql(
            "SELECT status, versao_origem, total_centavos, cliente_email FROM pedidos WHERE id = ?")
        .param(pedido)
        .query(
            (rs, n) ->
                new EstadoDoPedido(
                    Status.doCodigo(rs.getString(1)),
                    rs.getLong(2),
                    rs.getObject(3, Long.class),
                    rs.getString(4)))
        .optional()
        .orElse(null);
  }

  private List<String> efeitos(String pedido) {
    return jdbc.sql("SELECT efeito FROM outbox WHERE pedido_id = ? ORDER BY efeito")
        .param(pedido)
        .query(String.class)
        .list();
  }

  private String emailNoOutbox(String pedido) {
    return jdbc.sql("SELECT cliente_email FROM outbox WHERE pedido_id = ?")
        .param(pedido)
        .query((rs, n) -> java.util.Optional.ofNullable(rs.getString(1)))
        .single()
        .orElse(null);
  }

  private long contar(String sql, Object... parametros) {
    return jdbc.sql(sql).params(parametros).query(Long.class).single();
  }

  private static String texto(String valor) {
    return valor == null ? "null" : "\"" + valor + "\"";
  }
}
