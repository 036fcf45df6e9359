package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.dominio.DobraCanonica;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Fato;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;

/** The one apply transaction against the real PostgreSQL. */
@Tag("todas-as-versoes-do-postgres")
class AplicadorDeEventosTest extends ContextoDoAplicador {

  @Autowired AplicadorDeEventos aplicador;
  @Autowired JdbcClient jdbc;
  @Autowired TransactionTemplate transacao;

  private final String prefixo = UUID.randomUUID().toString().substring(0, 8) + "-";

  /**
   * Two listener transactions whose orders overlap, each given them in the opposite order (a
   * rebalance can have two appliers read one partition for a moment): each takes its locks in the
   * one global order, so neither waits for the other in a cycle. In the order given, PostgreSQL
   * would end one of each pair as a deadlock's victim.
   */
  @Test
  void transacoesDeVariosPedidosTravamNumaSoOrdemENuncaSeBloqueiamEmCiclo() throws Exception {
    List<String> pedidos = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      pedidos.add(prefixo + "trava" + i);
    }
    List<String> inversos = new ArrayList<>(pedidos);
    Collections.reverse(inversos);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int rodada = 0; rodada < 10; rodada++) {
        var juntos = new java.util.concurrent.CyclicBarrier(2);
        List<Future<?>> transacoes = new ArrayList<>();
        for (List<String> ordem : List.of(pedidos, inversos)) {
          transacoes.add(
              threads.submit(
                  () ->
                      transacao.executeWithoutResult(
                          status -> {
                            aguardar(juntos);
                            aplicador.travarPedidosNaTransacao(ordem);
                          })));
        }
        for (Future<?> feita : transacoes) {
          feita.get(30, TimeUnit.SECONDS);
        }
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private static void aguardar(java.util.concurrent.CyclicBarrier juntos) {
    try {
      juntos.await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aplicaOFatoERegistraEfeitoEResultado() {
    String pedido = prefixo + "ord";
    gravar("e1", pedido, "order.paid", 1, "2026-11-29T12:00:00Z", 1990L, "a@loja");

    var aplicado = aplicador.aplicar(prefixo + "e1", ModoDeAplicacao.NORMAL);

    assertThat(aplicado)
        .contains(
            new EventoAplicado(
                prefixo + "e1", pedido, Resultado.APLICADO, List.of(Efeito.LIBERAR_SEPARACAO)));
    assertThat(estado(pedido)).isEqualTo(new EstadoDoPedido(Status.PAGO, 1, 1990L, "a@loja"));
    assertThat(efeitos(pedido)).containsExactly("liberar_separacao");
    assertThat(resultado("e1")).isEqualTo("aplicado");
    assertThat(aplicador.aplicar(prefixo + "e1", ModoDeAplicacao.NORMAL))
        .as("an applied event is not applied again")
        .isEmpty();
  }

  @Test
  void eventoAusenteNaoFazNada() {
    assertThat(aplicador.aplicar(prefixo + "nao-existe", ModoDeAplicacao.NORMAL)).isEmpty();
  }

  @Test
  void instanteInvalidoEAssentadoUmaVezENuncaRetentado() {
    String pedido = prefixo + "ord";
    gravar("e1", pedido, "order.paid", null, "ontem", null, null);

    var aplicado = aplicador.aplicar(prefixo + "e1", ModoDeAplicacao.NORMAL);

    assertThat(aplicado).map(EventoAplicado::resultado).contains(Resultado.FATO_INVALIDO);
    assertThat(resultado("e1")).isEqualTo("fato_invalido");
    assertThat(
            jdbc.sql("SELECT motivo FROM webhook_eventos WHERE evento_id = ?")
                .param(prefixo + "e1")
                .query(String.class)
                .single())
        .isEqualTo("instante invalido: ontem");
    assertThat(estado(pedido)).isNull();
    assertThat(aplicador.aplicar(prefixo + "e1", ModoDeAplicacao.NORMAL)).isEmpty();
  }

  @Test
  void tipoDesconhecidoEIgnoradoPeloNome() {
    gravar("e1", prefixo + "ord", "order.updated", 1, null, null, null);

    assertThat(aplicador.aplicar(prefixo + "e1", ModoDeAplicacao.NORMAL))
        .map(EventoAplicado::resultado)
        .contains(Resultado.TIPO_IGNORADO);
    assertThat(resultado("e1")).isEqualTo("tipo_ignorado");
  }

  @Test
  void cancelamentoAtrasadoVenceEMarcaOEnviadoComoRegressao() {
    String pedido = prefixo + "ord";
    gravar("pago", pedido, "order.paid", 10, null, null, null);
    gravar("enviado", pedido, "order.shipped", 30, null, null, null);
    gravar("cancelado", pedido, "order.canceled", 20, null, null, null);

    aplicador.aplicar(prefixo + "enviado", ModoDeAplicacao.NORMAL);
    aplicador.aplicar(prefixo + "pago", ModoDeAplicacao.NORMAL);
    aplicador.aplicar(prefixo + "cancelado", ModoDeAplicacao.NORMAL);

    assertThat(estado(pedido)).isEqualTo(new EstadoDoPedido(Status.CANCELADO, 20, null, null));
    assertThat(resultado("enviado")).isEqualTo("regressao_de_terminal");
    assertThat(resultado("pago")).isEqualTo("aplicado");
    assertThat(resultado("cancelado")).isEqualTo("aplicado");
    assertThat(efeitos(pedido)).as("pago was never the observed state").isEmpty();
  }

  @Test
  void pagamentoDepoisDoCancelamentoNaoLiberaNada() {
    String pedido = prefixo + "ord";
    gravar("criado", pedido, "order.created", 1, null, null, null);
    gravar("cancelado", pedido, "order.canceled", 3, null, null, null);
    gravar("pago", pedido, "order.paid", 2, null, null, null);

    for (String evento : List.of("criado", "cancelado", "pago")) {
      aplicador.aplicar(prefixo + evento, ModoDeAplicacao.NORMAL);
    }

    assertThat(estado(pedido).status()).isEqualTo(Status.CANCELADO);
    assertThat(efeitos(pedido)).isEmpty();
  }

  @Test
  void modoForcadoRederivaOEstadoSemDuplicarEfeitos() {
    String pedido = prefixo + "ord";
    gravar("criado", pedido, "order.created", 1, null, 500L, null);
    gravar("pago", pedido, "order.paid", 2, null, null, "a@loja");
    aplicador.aplicar(prefixo + "criado", ModoDeAplicacao.NORMAL);
    aplicador.aplicar(prefixo + "pago", ModoDeAplicacao.NORMAL);
    EstadoDoPedido correto = estado(pedido);
    comoAdministrador().sql("DELETE FROM pedidos WHERE id = ?").param(pedido).update();

    var reaplicado = aplicador.aplicar(prefixo + "criado", ModoDeAplicacao.FORCADO);

    assertThat(reaplicado).map(EventoAplicado::resultado).contains(Resultado.APLICADO);
    assertThat(estado(pedido)).isEqualTo(correto);
    assertThat(efeitos(pedido)).containsExactly("liberar_separacao");
    aplicador.aplicar(prefixo + "pago", ModoDeAplicacao.FORCADO);
    assertThat(estado(pedido)).isEqualTo(correto);
    assertThat(efeitos(pedido)).containsExactly("liberar_separacao");
  }

  @Test
  void doisPrimeirosFatosConcorrentesDeUmPedidoNovoSerializam() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int i = 0; i < 30; i++) {
        String pedido = prefixo + "novo" + i;
        gravar("c" + i, pedido, "order.created", 1, null, 100L, null);
        gravar("p" + i, pedido, "order.paid", 2, null, null, "a@loja");
        CountDownLatch largada = new CountDownLatch(1);
        List<Future<?>> corridas = new ArrayList<>();
        for (String evento : List.of("c" + i, "p" + i)) {
          corridas.add(
              threads.submit(
                  () -> {
                    largada.await();
                    return aplicador.aplicar(prefixo + evento, ModoDeAplicacao.NORMAL);
                  }));
        }
        largada.countDown();
        for (Future<?> corrida : corridas) {
          corrida.get(30, TimeUnit.SECONDS); // a duplicate-key error would surface here
        }
        assertThat(estado(pedido)).isEqualTo(new EstadoDoPedido(Status.PAGO, 2, 100L, "a@loja"));
        assertThat(efeitos(pedido)).containsExactly("liberar_separacao");
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void quemEsperouPeloPedidoLeOQueODonoAnteriorGravou() throws Exception {
    String pedido = prefixo + "ord";
    gravar("criado", pedido, "order.created", 1, null, 700L, null);
    gravar("pago", pedido, "order.paid", 2, null, null, "a@loja");
    CountDownLatch aplicouSemCommit = new CountDownLatch(1);
    CountDownLatch podeCommitar = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<?> primeiro =
          threads.submit(
              () ->
                  transacao.execute(
                      status -> {
                        aplicador.aplicarNaTransacao(prefixo + "criado", ModoDeAplicacao.NORMAL);
                        aplicouSemCommit.countDown();
                        try {
                          return podeCommitar.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                          throw new IllegalStateException(e);
                        }
                      }));
      assertThat(aplicouSemCommit.await(30, TimeUnit.SECONDS)).isTrue();
      Future<?> segundo =
          threads.submit(() -> aplicador.aplicar(prefixo + "pago", ModoDeAplicacao.NORMAL));
      // The second apply's pipeline is sent and waits on the order's lock, its read behind it.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  jdbc.sql(
                              "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                          .query(Long.class)
                          .single()
                      == 1);
      podeCommitar.countDown();
      primeiro.get(30, TimeUnit.SECONDS);
      segundo.get(30, TimeUnit.SECONDS);
    } finally {
      threads.shutdownNow();
    }

    // A read with a snapshot from before the first commit would not see "criado" applied: the
    // fold would lose its total, and the row would be written without it.
    assertThat(estado(pedido)).isEqualTo(new EstadoDoPedido(Status.PAGO, 2, 700L, "a@loja"));
    assertThat(resultado("criado")).isEqualTo("aplicado");
    assertThat(resultado("pago")).isEqualTo("aplicado");
    assertThat(efeitos(pedido)).containsExactly("liberar_separacao");
  }

  @Test
  void aEscritaDaAplicacaoUsaOPlanoGenericoSemReplanejar() {
    // One transaction, so one connection: pgjdbc prepares the write on the server from its fifth
    // use, and pg_prepared_statements counts how PostgreSQL planned each execution of it. Left to
    // itself PostgreSQL plans the first five anew, and with a production-sized inbox went on doing
    // so for good (the benchmark's: the generic plan's cost assumes ten elements per array).
    List<Long> planos =
        transacao.execute(
            status -> {
              for (int i = 0; i < 12; i++) {
                gravar("e" + i, prefixo + "ord" + i, "order.created", 1, null, 1990L, "a@loja");
                assertThat(aplicador.aplicarNaTransacao(prefixo + "e" + i, ModoDeAplicacao.NORMAL))
                    .isPresent();
              }
              return jdbc.sql(
                      """
                      SELECT COALESCE(sum(generic_plans), 0), COALESCE(sum(custom_plans), 0)
                        FROM pg_prepared_statements
                       WHERE statement LIKE '%INSERT INTO pedidos%'
                      """)
                  .query((rs, n) -> List.of(rs.getLong(1), rs.getLong(2)))
                  .single();
            });

    assertThat(planos.get(0)).as("executions with the generic plan").isPositive();
    assertThat(planos.get(1)).as("executions planned anew").isZero();
  }

  @Test
  void muitasThreadsComFatosEmbaralhadosEDuplicadosChegamAoCanonico() throws Exception {
    Random random = new Random(42);
    Map<String, List<Fato>> fatosPorPedido = new HashMap<>();
    List<String> entregas = new ArrayList<>();
    for (int p = 0; p < 60; p++) {
      String pedido = prefixo + "p" + p;
      List<Fato> fatos = new ArrayList<>();
      int quantos = 1 + random.nextInt(6);
      for (int f = 0; f < quantos; f++) {
        Status status = Status.values()[random.nextInt(Status.values().length)];
        int sequencia = 1 + random.nextInt(8); // ties on purpose
        Long total = random.nextBoolean() ? null : (long) random.nextInt(3) * 1000;
        String email = random.nextBoolean() ? null : "c" + random.nextInt(3) + "@loja";
        String evento = pedido + "-f" + f;
        gravar(
            evento.substring(prefixo.length()),
            pedido,
            tipo(status),
            sequencia,
            null,
            total,
            email);
        fatos.add(new Fato(evento, status, sequencia, total, email));
        for (int copia = 0; copia <= random.nextInt(3); copia++) {
          entregas.add(evento);
        }
      }
      fatosPorPedido.put(pedido, fatos);
    }
    Collections.shuffle(entregas, random);

    ConcurrentLinkedQueue<String> fila = new ConcurrentLinkedQueue<>(entregas);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> trabalhadores = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        trabalhadores.add(
            threads.submit(
                () -> {
                  for (String evento = fila.poll(); evento != null; evento = fila.poll()) {
                    aplicador.aplicar(evento, ModoDeAplicacao.NORMAL);
                  }
                  return null;
                }));
      }
      for (Future<?> trabalhador : trabalhadores) {
        trabalhador.get(2, TimeUnit.MINUTES); // a deadlock would surface here
      }
    } finally {
      threads.shutdownNow();
    }

    fatosPorPedido.forEach(
        (pedido, fatos) -> {
          DobraCanonica canonica = DobraCanonica.dobrar(fatos);
          assertThat(estado(pedido)).as(pedido).isEqualTo(canonica.estado());
          canonica
              .veredictos()
              .forEach(
                  (evento, veredicto) ->
                      assertThat(resultado(evento.substring(prefixo.length())))
                          .as(evento)
                          .isEqualTo(veredicto.codigo()));
          List<String> efeitos = efeitos(pedido);
          if (efeitos.contains("interromper_separacao")) {
            assertThat(efeitos).contains("liberar_separacao");
          }
        });
  }

  private void gravar(
      String evento,
      String pedido,
      String tipo,
      Integer sequence,
      String occurredAt,
      Long total,
      String email) {
    String payload =
        """
        {"id": %s, "type": %s, "sequence": %s, "occurred_at": %s,
         "data": {"id": %s, "total_cents": %s, "customer_email": %s}}
        """
            .formatted(
                json(prefixo + evento),
                json(tipo),
                sequence,
                json(occurredAt),
                json(pedido),
                total,
                json(email));
    jdbc.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
            VALUES (?, ?, ?, ?::jsonb)
            """)
        .params(prefixo + evento, pedido, tipo, payload)
        .update();
  }

  private static String json(String texto) {
    return texto == null ? "null" : "\"" + texto + "\"";
  }

  private static String tipo(Status status) {
    return switch (status) {
      case CRIADO -> "order.created";
      case PAGO -> "order.paid";
      case ENVIADO -> "order.shipped";
      case CANCELADO -> "order.canceled";
      case REEMBOLSADO -> "order.refunded";
    };
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
    return jdbc.sql("SELECT efeito FROM outbox WHERE pedido_id = ? ORDER BY criado_em, efeito")
        .param(pedido)
        .query(String.class)
        .list();
  }

  private String resultado(String evento) {
    return jdbc.sql("SELECT resultado FROM webhook_eventos WHERE evento_id = ?")
        .param(prefixo + evento)
        .query(String.class)
        .single();
  }
}
