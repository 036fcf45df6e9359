package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import pedidos.aplicador.AplicadorApplication;
import pedidos.aplicador.ArgumentosDoServico;
import pedidos.aplicador.LinhaDeComandoDeTeste;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.dominio.Status;
import tools.jackson.databind.JsonNode;

/**
 * Issue 29, item 2: re-deriving many orders at once, on the real database and broker, through HTTP
 * with the operators' login: the dry run counts and shows what would change and writes nothing; the
 * run repairs, paced, can be paused, resumed and cancelled; a job goes on where it stopped on
 * another instance when the one running it stops, and never runs on two at once; the page shows the
 * dry run's numbers and a progress bar that moves, in headless Chromium.
 */
@TestPropertySource(
    properties = {
      // The runner runs with the periodic work; reconciliation stays off (no API configured).
      "aplicador.tarefas-periodicas=true",
      "aplicador.rederivacao-em-massa.intervalo=200ms",
      "aplicador.rederivacao-em-massa.pedidos-por-segundo=50",
      "aplicador.rederivacao-em-massa.maximo-de-pedidos=1000"
    })
class RederivacaoEmMassaTest extends ContextoWebDoPainel {

  @Autowired JdbcClient jdbc;
  @Autowired AplicadorDeEventos aplicador;
  @Autowired ExecutorDeRederivacoes executor;

  /**
   * Paid, cancelled, then a late 'enviado': the order is cancelado at version 20, with two effects.
   * Broken, its row is put back to pago at version 10, as a restore from an old backup would.
   */
  private String pedido(boolean quebrado) {
    String id =
        PedidoDeTeste.novo("ord-massa")
            .email("Cliente.Massa@Example.com")
            .com(Status.PAGO, 10)
            .com(Status.CRIADO, 5)
            .com(Status.CANCELADO, 20)
            .com(Status.ENVIADO, 30)
            .aplicar(jdbc, aplicador)
            .id();
    if (quebrado) {
      comoAdministrador()
          .sql("UPDATE pedidos SET status = 'pago', versao_origem = 10 WHERE id = ?")
          .param(id)
          .update();
    }
    return id;
  }

  /** A window of arrival no other test's events fall in: a random day of 2001. */
  private static Instant janelaSo() {
    return Instant.parse("2001-01-01T00:00:00Z")
        .plus(ThreadLocalRandom.current().nextInt(360), ChronoUnit.DAYS);
  }

  private void moverPara(Instant inicio, List<String> pedidos) {
    for (String pedido : pedidos) {
      jdbc.sql(
              "UPDATE webhook_eventos SET recebido_em = CAST(? AS timestamptz) + interval '1 hour'"
                  + " WHERE recurso_id = ?")
          .params(java.sql.Timestamp.from(inicio), pedido)
          .update();
    }
  }

  @Test
  void aSimulacaoContaEMostraOQueMudariaSemEscrever_eAExecucaoRepara() throws Exception {
    List<String> quebrados = List.of(pedido(true), pedido(true), pedido(true));
    List<String> certos = List.of(pedido(false), pedido(false), pedido(false));
    String foraDaJanela = pedido(true);
    Instant inicio = janelaSo();
    List<String> todos = new ArrayList<>(quebrados);
    todos.addAll(certos);
    moverPara(inicio, todos);
    long efeitosAntes = efeitos(todos);

    HttpResponse<String> criado =
        post(
            "/status/acoes/rederivar-em-massa?desde="
                + inicio
                + "&ate="
                + inicio.plus(1, ChronoUnit.DAYS)
                + "&tipo=order.paid",
            null);

    assertThat(criado.statusCode()).as(criado.body()).isEqualTo(200);
    assertThat(criado.body()).contains("6 orders, 24 facts").contains("dry run queued");
    long lote = ultimoLote();
    JsonNode simulado = aguardarEstado(lote, "simulado");
    assertThat(simulado.path("pedidosTotal").intValue()).isEqualTo(6);
    assertThat(simulado.path("fatosTotal").longValue()).isEqualTo(24);
    assertThat(contagem(simulado, "simulacao")).containsExactly(6, 3, 0, 0);
    // nothing written: the broken orders are still broken, no effect was born
    for (String pedido : quebrados) {
      assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("pago");
    }
    assertThat(efeitos(todos)).isEqualTo(efeitosAntes);
    JsonNode mudancas = getJson("/status/rederivacoes/" + lote).path("mudancas");
    assertThat(mudancas.valueStream().map(m -> m.path("pedidoId").stringValue()).toList())
        .containsExactlyInAnyOrderElementsOf(quebrados);
    assertThat(mudancas.get(0).path("antes").stringValue()).contains("pago v10");
    assertThat(mudancas.get(0).path("depois").stringValue()).contains("cancelado v20");
    assertThat(mudancas.toString()).doesNotContain("Cliente.Massa");

    HttpResponse<String> confirmado =
        post("/status/acoes/rederivacao-em-massa/confirmar?lote=" + lote, null);

    assertThat(confirmado.statusCode()).as(confirmado.body()).isEqualTo(200);
    JsonNode concluido = aguardarEstado(lote, "concluido");
    assertThat(contagem(concluido, "execucao")).containsExactly(6, 3, 0, 0);
    for (String pedido : todos) {
      assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("cancelado");
    }
    assertThat(StatusDoPedido.atual(jdbc, foraDaJanela)).as("outside the window").isEqualTo("pago");
    assertThat(efeitos(todos)).as("forced mode bears no effect twice").isEqualTo(efeitosAntes);
    assertThat(auditoria("job " + lote))
        .containsExactly(
            "confirmar_rederivacao_em_massa feito " + USUARIO,
            "rederivacao_em_massa feito " + USUARIO);
    assertThat(
            jdbc.sql(
                    "SELECT detalhe FROM operacoes_auditadas WHERE acao = 'rederivacao_em_massa'"
                        + " AND alvo = ?")
                .param("job " + lote)
                .query(String.class)
                .single())
        .contains("6 orders, 24 facts")
        .contains("dry run: 6 done, 3 would change, 0 effect(s) would be born, 0 failed")
        .contains("run: 6 done, 3 changed, 0 effect(s) born, 0 failed");

    HttpResponse<String> outraVez =
        post("/status/acoes/rederivacao-em-massa/confirmar?lote=" + lote, null);
    assertThat(outraVez.statusCode()).isEqualTo(409);
    assertThat(outraVez.body()).contains("is concluido");
  }

  /**
   * Forced mode bears no effect on an intact outbox; where a restore lost an effect's row, the dry
   * run says one would be born, and writes it no more than anything else.
   */
  @Test
  void aSimulacaoDizQueEfeitosNasceriam_ondeOOutboxPerdeuLinhas() throws Exception {
    String pedido = pedido(true);
    comoAdministrador()
        .sql("DELETE FROM outbox WHERE pedido_id = ? AND efeito = 'interromper_separacao'")
        .param(pedido)
        .update();

    post("/status/acoes/rederivar-em-massa", pedido);

    long lote = ultimoLote();
    JsonNode simulado = aguardarEstado(lote, "simulado");
    assertThat(contagem(simulado, "simulacao")).containsExactly(1, 1, 1, 0);
    assertThat(
            getJson("/status/rederivacoes/" + lote)
                .path("mudancas")
                .get(0)
                .path("efeitos")
                .stringValue())
        .isEqualTo("interromper_separacao");
    assertThat(efeitos(List.of(pedido))).as("the dry run wrote nothing").isEqualTo(1);
    post("/status/acoes/rederivacao-em-massa/cancelar?lote=" + lote, null);
  }

  /**
   * The lease's session ends under the runner (a partition, a failover): it stops at its next
   * order, takes the lease again, and goes on from the cursor; every order is counted once.
   */
  @Test
  void aTravaPerdidaNoMeioDoJob_oJobSegueDoCursorSemContarDuasVezes() throws Exception {
    List<String> pedidos = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      pedidos.add(pedido(i % 2 == 0));
    }
    post("/status/acoes/rederivar-em-massa?ritmo=10", String.join(" ", pedidos));
    long lote = ultimoLote();
    aguardarEstado(lote, "simulado");
    post("/status/acoes/rederivacao-em-massa/confirmar?lote=" + lote, null);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> lote(lote).path("execucao").path("feitos").intValue() >= 4);

    int terminadas =
        comoAdministrador()
            .sql(
                """
                SELECT count(pg_terminate_backend(pid)) FROM pg_locks
                 WHERE locktype = 'advisory' AND classid = 1349284 AND objid = 2 AND granted
                """)
            .query(Integer.class)
            .single();

    assertThat(terminadas).as("the lease's session").isEqualTo(1);
    assertThat(lote(lote).path("execucao").path("feitos").intValue()).isLessThan(20);
    JsonNode concluido = aguardarEstado(lote, "concluido");
    assertThat(contagem(concluido, "execucao")).containsExactly(20, 10, 0, 0);
    for (String pedido : pedidos) {
      assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("cancelado");
    }
  }

  @Test
  void filtrosErradosSao4xx_semLoginOuCabecalhoNada() throws Exception {
    Instant inicio = janelaSo();

    HttpResponse<String> semJanela = post("/status/acoes/rederivar-em-massa?tipo=order.paid", null);
    HttpResponse<String> nada =
        post(
            "/status/acoes/rederivar-em-massa?desde="
                + inicio
                + "&ate="
                + inicio.plus(1, ChronoUnit.HOURS),
            null);
    HttpResponse<String> invertida =
        post(
            "/status/acoes/rederivar-em-massa?desde=" + inicio + "&ate=" + inicio.minusSeconds(1),
            null);
    HttpResponse<String> instanteRuim =
        post("/status/acoes/rederivar-em-massa?desde=ontem&ate=hoje", null);
    HttpResponse<String> semLote = post("/status/acoes/rederivacao-em-massa/pausar?lote=-1", null);

    assertThat(semJanela.statusCode()).isEqualTo(409);
    assertThat(semJanela.body()).contains("a job never takes every order");
    assertThat(nada.statusCode()).isEqualTo(409);
    assertThat(nada.body()).contains("no order has a stored event that matches");
    assertThat(invertida.statusCode()).isEqualTo(409);
    assertThat(instanteRuim.statusCode()).isEqualTo(400);
    assertThat(semLote.statusCode()).isEqualTo(409);
    assertThat(enviar("/status/acoes/rederivar-em-massa", null, null, true, "x").statusCode())
        .isEqualTo(401);
    assertThat(get("/status/rederivacoes", null, null).statusCode()).isEqualTo(401);
    assertThat(get("/rederivacao.html", null, null).statusCode()).isEqualTo(401);
    HttpResponse<String> semCabecalho =
        enviar("/status/acoes/rederivar-em-massa", USUARIO, SENHA, false, pedido(true));
    assertThat(semCabecalho.statusCode()).isEqualTo(403);
  }

  @Test
  void umaListaEnviada_pausaRetomaECancela() throws Exception {
    List<String> pedidos = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pedidos.add(pedido(i % 2 == 0));
    }
    String lista = String.join("\n", pedidos) + "\nord-que-nao-existe\n";

    HttpResponse<String> criado = post("/status/acoes/rederivar-em-massa?ritmo=5", lista);

    assertThat(criado.statusCode()).as(criado.body()).isEqualTo(200);
    assertThat(criado.body()).contains("10 orders, 40 facts").contains("among 11 listed order(s)");
    long lote = ultimoLote();
    JsonNode simulado = aguardarEstado(lote, "simulado");
    assertThat(simulado.path("pedidosPorSegundo").intValue()).isEqualTo(5);
    assertThat(contagem(simulado, "simulacao")).containsExactly(10, 5, 0, 0);

    Instant confirmadoEm = Instant.now();
    post("/status/acoes/rederivacao-em-massa/confirmar?lote=" + lote, null);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> lote(lote).path("execucao").path("feitos").intValue() >= 2);
    HttpResponse<String> pausado =
        post("/status/acoes/rederivacao-em-massa/pausar?lote=" + lote, null);

    assertThat(pausado.statusCode()).as(pausado.body()).isEqualTo(200);
    int feitosNaPausa = lote(lote).path("execucao").path("feitos").intValue();
    assertThat(feitosNaPausa).isBetween(2, 9);
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> lote(lote).path("execucao").path("feitos").intValue(),
            feitos -> feitos == feitosNaPausa);
    assertThat(post("/status/acoes/rederivacao-em-massa/pausar?lote=" + lote, null).body())
        .as("pausing twice pauses once")
        .contains("nada_a_fazer");

    post("/status/acoes/rederivacao-em-massa/retomar?lote=" + lote, null);

    JsonNode concluido = aguardarEstado(lote, "concluido");
    assertThat(contagem(concluido, "execucao")).containsExactly(10, 5, 0, 0);
    assertThat(Duration.between(confirmadoEm, Instant.now()))
        .as("10 orders at 5 per second, plus a pause of a second")
        .isGreaterThanOrEqualTo(Duration.ofMillis(2_800));
    for (String pedido : pedidos) {
      assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("cancelado");
    }

    // cancelled in its dry run: it stops there, its one row audited with its counts
    post("/status/acoes/rederivar-em-massa?ritmo=1", lista);
    long outro = ultimoLote();
    HttpResponse<String> cancelado =
        post("/status/acoes/rederivacao-em-massa/cancelar?lote=" + outro, null);
    assertThat(cancelado.statusCode()).isEqualTo(200);
    assertThat(lote(outro).path("estado").stringValue()).isEqualTo("cancelado");
    assertThat(auditoria("job " + outro))
        .as("the job's row with its counts, then the click's")
        .containsExactly(
            "rederivacao_em_massa feito " + USUARIO,
            "cancelar_rederivacao_em_massa feito " + USUARIO);
    assertThat(
            post("/status/acoes/rederivacao-em-massa/confirmar?lote=" + outro, null).statusCode())
        .isEqualTo(409);
  }

  /**
   * Two more instances of the applier, each with its runner: the job runs on one at a time; when
   * that one stops mid-run (a restart, a deployment), the other goes on from its cursor, and every
   * order is counted once.
   */
  @Test
  void umReinicioNoMeioDoJob_outroContextoContinuaDeOndeParou_nuncaDoisAoMesmoTempo()
      throws Exception {
    List<String> pedidos = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      pedidos.add(pedido(i % 3 == 0));
    }
    executor.stop(); // this test's own context looks on
    // Left to Spring Boot, closing a context would shut logging down for the JVM's others.
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    ConfigurableApplicationContext a = outroAplicador();
    ConfigurableApplicationContext b = outroAplicador();
    try {
      Map<String, ConfigurableApplicationContext> porInstancia = new HashMap<>();
      porInstancia.put(a.getBean(ExecutorDeRederivacoes.class).instancia(), a);
      porInstancia.put(b.getBean(ExecutorDeRederivacoes.class).instancia(), b);
      post("/status/acoes/rederivar-em-massa?ritmo=10", String.join(",", pedidos));
      long lote = ultimoLote();
      aguardarEstado(lote, "simulado");
      post("/status/acoes/rederivacao-em-massa/confirmar?lote=" + lote, null);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> lote(lote).path("execucao").path("feitos").intValue() >= 5);
      String primeiro = lote(lote).path("executadoPor").stringValue();
      assertThat(porInstancia).containsKey(primeiro);
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(3))
          .until(
              () -> lote(lote).path("executadoPor").stringValue(), quem -> quem.equals(primeiro));
      int antesDoReinicio = lote(lote).path("execucao").path("feitos").intValue();
      assertThat(antesDoReinicio).as("still under way").isLessThan(30);

      porInstancia.remove(primeiro).close();

      String segundo = porInstancia.keySet().iterator().next();
      JsonNode concluido = aguardarEstado(lote, "concluido");
      assertThat(concluido.path("executadoPor").stringValue()).isEqualTo(segundo);
      assertThat(contagem(concluido, "execucao"))
          .as("every order once: none skipped, none counted twice")
          .containsExactly(30, 10, 0, 0);
      for (String pedido : pedidos) {
        assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("cancelado");
      }
      assertThat(auditoria("job " + lote))
          .containsExactly(
              "confirmar_rederivacao_em_massa feito " + USUARIO,
              "rederivacao_em_massa feito " + USUARIO);
    } finally {
      a.close();
      b.close();
      System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
      executor.start();
    }
  }

  @Test
  void aPaginaMostraOsNumerosDaSimulacaoEABarraDeProgressoAndando(@TempDir Path perfil)
      throws Exception {
    List<String> pedidos = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      pedidos.add(pedido(i % 4 == 0));
    }
    post("/status/acoes/rederivar-em-massa?ritmo=3", String.join("\n", pedidos));
    long lote = ultimoLote();
    String url =
        "http://"
            + USUARIO
            + ":"
            + SENHA
            + "@127.0.0.1:"
            + porta
            + "/rederivacao.html?lote="
            + lote;
    try {
      int[] primeiro = new int[1];
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                primeiro[0] = progresso(ChromiumSemCabeca.renderizar(url, perfil));
                return primeiro[0] > 0 && primeiro[0] < 40;
              });
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> progresso(ChromiumSemCabeca.renderizar(url, perfil)) > primeiro[0]);

      aguardarEstado(lote, "simulado");
      String dom = ChromiumSemCabeca.renderizar(url, perfil);
      assertThat(dom)
          .contains("simulado")
          .contains("40 orders, 160 facts")
          .contains("would change: 10")
          .contains("effects that would be born: 0 (none, as forced mode must)")
          .contains("pago v10")
          .contains("cancelado v20")
          .contains("Confirm the run")
          .contains("<p id=\"erro\"></p>");
      assertThat(progresso(dom)).isEqualTo(40);
    } finally {
      post("/status/acoes/rederivacao-em-massa/cancelar?lote=" + lote, null);
    }
  }

  /** As an operator runs it: the service's context without its listener, a progress line. */
  @Test
  void pelaLinhaDeComando_simulaExecutaEMostraOProgresso(@TempDir Path pasta) throws Exception {
    List<String> pedidos = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      pedidos.add(pedido(i % 2 == 0));
    }
    Path lista = pasta.resolve("pedidos.txt");
    java.nio.file.Files.writeString(lista, String.join("\n", pedidos));
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    try {
      var ajuda = LinhaDeComandoDeTeste.executar(Map.of(), "rederivar-em-massa", "--help");
      var semFiltro =
          LinhaDeComandoDeTeste.executar(Map.of(), "rederivar-em-massa", "--operador=ana");
      var execucao =
          LinhaDeComandoDeTeste.executar(
              Map.of(),
              "rederivar-em-massa",
              "--operador=ana",
              "--lista=" + lista,
              "--ritmo=10",
              "--executar");

      assertThat(ajuda.codigo()).isZero();
      assertThat(ajuda.saida()).contains("--executar").contains("--lista=FILE").contains("dry run");
      assertThat(semFiltro.codigo()).isEqualTo(2);
      assertThat(semFiltro.erro()).contains("a job never takes every order");
      assertThat(execucao.codigo()).as(execucao.erro()).isZero();
      assertThat(execucao.saida())
          .containsPattern(
              "job \\d+ simulado: dry run 6/6 orders \\(100%\\), would change 3,"
                  + " effects that would be born 0, failed 0")
          .contains("feito: job ")
          .containsPattern("job \\d+ concluido: run 6/6 orders \\(100%\\), changed 3");
    } finally {
      System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
    }
    for (String pedido : pedidos) {
      assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("cancelado");
    }
    long lote = ultimoLote();
    assertThat(auditoria("job " + lote))
        .containsExactly(
            "confirmar_rederivacao_em_massa feito ana", "rederivacao_em_massa feito ana");
    assertThat(
            jdbc.sql(
                    "SELECT resultado FROM operacoes_auditadas WHERE operador = 'ana'"
                        + " AND acao = 'rederivar_em_massa' ORDER BY id")
                .query(String.class)
                .list())
        .as("the job created; the filter without a window was refused before connecting")
        .containsExactly("feito");
  }

  private static final Pattern PROGRESSO =
      Pattern.compile("<progress id=\"progresso\"[^>]*value=\"(\\d+)\"");

  private static int progresso(String dom) {
    Matcher m = PROGRESSO.matcher(dom);
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  private ConfigurableApplicationContext outroAplicador() {
    String[] argumentos =
        ArgumentosDoServico.comoNumaImplantacao(
            Map.of(
                "spring.kafka.listener.auto-startup", "false",
                "aplicador.tarefas-periodicas", "true",
                "aplicador.varredura.intervalo", "1h",
                "aplicador.retencao.ligada", "false",
                "aplicador.rederivacao-em-massa.intervalo", "200ms"));
    return new SpringApplicationBuilder(AplicadorApplication.class)
        .web(WebApplicationType.NONE)
        .run(argumentos);
  }

  private JsonNode aguardarEstado(long lote, String estado) throws Exception {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> lote(lote).path("estado").stringValue(), estado::equals);
    return lote(lote);
  }

  private JsonNode lote(long lote) throws Exception {
    return getJson("/status/rederivacoes/" + lote).path("lote");
  }

  private static List<Integer> contagem(JsonNode lote, String fase) {
    JsonNode c = lote.path(fase);
    return List.of(
        c.path("feitos").intValue(),
        c.path("mudados").intValue(),
        c.path("efeitos").intValue(),
        c.path("falhas").intValue());
  }

  private long ultimoLote() throws Exception {
    return getJson("/status/rederivacoes").get(0).path("id").longValue();
  }

  private long efeitos(List<String> pedidos) {
    return jdbc.sql("SELECT count(*) FROM outbox WHERE pedido_id = ANY(?)")
        .param(pedidos.toArray(String[]::new))
        .query(Long.class)
        .single();
  }

  private List<String> auditoria(String alvo) {
    return jdbc.sql(
            "SELECT acao || ' ' || resultado || ' ' || operador FROM operacoes_auditadas"
                + " WHERE alvo = ? ORDER BY id")
        .param(alvo)
        .query(String.class)
        .list();
  }
}
