package pedidos.aplicador.reconciliacao;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.CaixaDeEntrada;
import pedidos.aplicador.aplicacao.EventoAplicado;
import pedidos.aplicador.aplicacao.LeitorDeEventos;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.reconciliacao.RodadaDeReconciliacao.Situacao;
import pedidos.contrato.MascaraDeEmail;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.VersaoDoFato;

/**
 * Webhooks get lost; the provider's orders API is the source of truth. Each round reads the orders
 * updated since the cursor (minus an overlap, for orders updated while the last round read), stores
 * each as a fact of its own, so the inbox stays the complete record of what we know, moves the
 * cursor once the page is stored, and applies the facts through the same transaction as any
 * webhook.
 */
public class Reconciliacao {

  private static final Logger log = LoggerFactory.getLogger(Reconciliacao.class);

  /** The row of {@code cursores} this reconciliation keeps; V1 creates it. */
  public static final String CURSOR = "pedidos_loja";

  static final String LER_CURSOR =
      """
      SELECT valor FROM cursores WHERE nome = :nome
      """;

  // Never backwards, except down to the ceiling (now minus the margin): a cursor that an order
  // dated in the future once carried ahead is brought back, or it would skip every order until
  // then.
  static final String AVANCAR_CURSOR =
      """
      UPDATE cursores SET valor = LEAST(GREATEST(valor, :valor), :teto) WHERE nome = :nome
      """;

  private final ClienteDaLoja loja;
  private final JdbcClient jdbc;
  private final CaixaDeEntrada caixaDeEntrada;
  private final AplicadorDeEventos aplicador;
  private final MetricasDoAplicador metricas;
  private final DataSource dataSource;
  private final TransactionTemplate transacao;
  private final Duration sobreposicao;
  private final Duration margem;
  private final int paginasPorRodada;
  private final Clock relogio;
  private final MeterRegistry registro;
  private final AtomicReference<Instant> cursorLido = new AtomicReference<>();
  // The round lock's heartbeat (TravaDaRodada); one daemon thread, idle between rounds.
  private final ScheduledExecutorService batimentos =
      Executors.newSingleThreadScheduledExecutor(
          tarefa -> {
            Thread linha = new Thread(tarefa, "reconciliacao-trava");
            linha.setDaemon(true);
            return linha;
          });

  public Reconciliacao(
      ClienteDaLoja loja,
      JdbcClient jdbc,
      CaixaDeEntrada caixaDeEntrada,
      AplicadorDeEventos aplicador,
      MetricasDoAplicador metricas,
      DataSource dataSource,
      TransactionTemplate transacao,
      AplicadorProperties.Reconciliacao config,
      Clock relogio,
      MeterRegistry registro) {
    this.loja = loja;
    this.jdbc = jdbc;
    this.caixaDeEntrada = caixaDeEntrada;
    this.aplicador = aplicador;
    this.metricas = metricas;
    this.dataSource = dataSource;
    this.transacao = transacao;
    this.sobreposicao = config.sobreposicao();
    this.margem = config.margem();
    this.paginasPorRodada = config.paginasPorRodada();
    this.relogio = relogio;
    this.registro = registro;
    Gauge.builder(
            "aplicador.reconciliacao.cursor.idade",
            cursorLido,
            cursor ->
                cursor.get() == null
                    ? Double.NaN
                    // Never negative: a cursor ahead of the clock (an order dated in the future
                    // before the ceiling existed, or clocks apart) is not "behind by less than 0".
                    : Math.max(0, Duration.between(cursor.get(), relogio.instant()).toMillis())
                        / 1000.0)
        .description("How far behind now the reconciliation cursor is, in seconds")
        .baseUnit("seconds")
        .register(registro);
  }

  /** One round, for the schedule: what it did goes to the metrics and the log. */
  public void reconciliarAgendada() {
    reconciliar();
  }

  /**
   * One round. A session-level lock on a connection of its own makes sure only one instance runs it
   * at a time; the round's own work commits in transactions of its own, page by page.
   */
  RodadaDeReconciliacao reconciliar() {
    RodadaDeReconciliacao resultado;
    try {
      Optional<TravaDaRodada> trava = TravaDaRodada.tentar(dataSource, batimentos);
      if (trava.isEmpty()) {
        resultado = RodadaDeReconciliacao.sem(Situacao.OCUPADA);
      } else {
        try (TravaDaRodada propria = trava.get()) {
          resultado = ler(propria);
        }
      }
    } catch (SQLException e) {
      throw new CannotGetJdbcConnectionException("reconciliation lock", e);
    }
    contar(resultado);
    return resultado;
  }

  /** The round's counters, beside the cursor's gauge: what a round is, only this class knows. */
  private void contar(RodadaDeReconciliacao rodada) {
    registro
        .counter("aplicador.reconciliacao.rodadas", "situacao", rodada.situacao().name())
        .increment();
    registro
        .counter("aplicador.reconciliacao.pedidos", "resultado", "armazenado")
        .increment(rodada.armazenados());
    registro
        .counter("aplicador.reconciliacao.pedidos", "resultado", "status_desconhecido")
        .increment(rodada.statusDesconhecido());
    registro
        .counter("aplicador.reconciliacao.pedidos", "resultado", "novo")
        .increment(rodada.novos());
  }

  private RodadaDeReconciliacao ler(TravaDaRodada trava) {
    Instant cursor =
        jdbc.sql(LER_CURSOR).param("nome", CURSOR).query(OffsetDateTime.class).single().toInstant();
    cursorLido.set(cursor);
    Instant teto = relogio.instant().minus(margem);
    Instant lido = cursor.isAfter(teto) ? teto : cursor;
    Instant desde = lido.minus(sobreposicao);
    int paginas = 0;
    // Only pages that reach past the cursor count against the round's budget: were the overlap's
    // pages counted, more orders changed within the overlap than a round reads would stop every
    // round inside it, the cursor would never move again, and no lost webhook after it be found.
    int paginasAlemDoCursor = 0;
    int armazenados = 0;
    int desconhecidos = 0;
    int aplicados = 0;
    int novos = 0;
    String proxima = null;
    try {
      do {
        if (!trava.valida()) {
          return new RodadaDeReconciliacao(
              Situacao.TRAVA_PERDIDA, paginas, armazenados, desconhecidos, aplicados, novos);
        }
        if (paginasAlemDoCursor == paginasPorRodada) {
          log.info(
              "reconciliation stopped after {} pages past the cursor, {} in all ({} orders read, {}"
                  + " of them new facts stored, {} applied); the next round goes on",
              paginasAlemDoCursor,
              paginas,
              armazenados,
              novos,
              aplicados);
          return new RodadaDeReconciliacao(
              Situacao.LIMITADA, paginas, armazenados, desconhecidos, aplicados, novos);
        }
        PaginaDePedidos pagina = loja.buscar(desde, proxima);
        paginas++;
        Map<String, PedidoDaApi> fatos = new LinkedHashMap<>();
        Instant maisRecente = null;
        for (PedidoDaApi pedido : pagina.pedidos()) {
          Instant atualizado = VersaoDoFato.lerInstante(pedido.updatedAt()).orElse(null);
          if (atualizado != null && (maisRecente == null || atualizado.isAfter(maisRecente))) {
            maisRecente = atualizado;
          }
          String eventoId = eventoId(pedido);
          if (eventoId == null) {
            desconhecidos++;
            log.warn(
                "pedido_id={} skipped by reconciliation: unknown status {}",
                pedido.id(),
                pedido.status());
          } else {
            fatos.put(eventoId, pedido);
          }
        }
        novos +=
            guardar(
                fatos,
                maisRecente == null || maisRecente.isBefore(teto) ? maisRecente : teto,
                teto);
        armazenados += fatos.size();
        if (maisRecente == null || maisRecente.isAfter(lido)) {
          paginasAlemDoCursor++;
        }
        aplicados += aplicar(fatos);
        proxima = pagina.proxima();
      } while (proxima != null);
    } catch (FalhaDaApiException e) {
      log.warn("reconciliation round failed, cursor kept: {}", e.getMessage());
      return new RodadaDeReconciliacao(
          Situacao.FALHOU, paginas, armazenados, desconhecidos, aplicados, novos);
    }
    var rodada =
        new RodadaDeReconciliacao(
            Situacao.CONCLUIDA, paginas, armazenados, desconhecidos, aplicados, novos);
    // Every round reads the overlap again: a round that found nothing new is no news, at DEBUG.
    String mensagem =
        "reconciliation: {} pages, {} orders read, {} of them new facts stored, {} facts applied,"
            + " {} orders skipped for an unknown status";
    Object[] valores = {paginas, armazenados, novos, aplicados, desconhecidos};
    if (rodada.semNovidade()) {
      log.debug(mensagem, valores);
    } else {
      log.info(mensagem, valores);
    }
    return rodada;
  }

  /**
   * Applies a page's facts in one transaction, their orders locked first in one fixed order, as the
   * listener applies a poll's records: one commit (one WAL flush) for the page instead of one per
   * order, which at 600 events/s held reconciliation to about 40 orders a second. If that
   * transaction fails, each fact is applied on its own, as before, so a fact that cannot be applied
   * costs only itself.
   *
   * @return how many facts were applied
   */
  private int aplicar(Map<String, PedidoDaApi> fatos) {
    if (fatos.size() > 1) {
      long inicio = System.nanoTime();
      List<EventoAplicado> feitos = new ArrayList<>(fatos.size());
      try {
        transacao.executeWithoutResult(
            status -> {
              aplicador.travarPedidosNaTransacao(
                  fatos.values().stream().map(PedidoDaApi::id).toList());
              for (String eventoId : fatos.keySet()) {
                aplicador
                    .aplicarNaTransacao(eventoId, ModoDeAplicacao.NORMAL)
                    .ifPresent(feitos::add);
              }
            });
        long porFato = (System.nanoTime() - inicio) / fatos.size();
        feitos.forEach(feito -> metricas.aplicado("reconciliacao", feito, porFato));
        return feitos.size();
      } catch (RuntimeException e) {
        log.warn(
            "reconciliation: {} facts failed together ({}); applying them one at a time",
            fatos.size(),
            // A database error may quote a row's values: an email among them.
            MascaraDeEmail.mascararNoTexto(e.toString()));
      }
    }
    int aplicados = 0;
    for (String eventoId : fatos.keySet()) {
      long inicio = System.nanoTime();
      var aplicado = aplicador.aplicar(eventoId, ModoDeAplicacao.NORMAL);
      if (aplicado.isPresent()) {
        aplicados++;
        metricas.aplicado("reconciliacao", aplicado.get(), System.nanoTime() - inicio);
      }
    }
    return aplicados;
  }

  /**
   * Stores the page's facts and moves the cursor past them (up to the ceiling), together or not at
   * all.
   */
  /**
   * @return how many of the facts the inbox lacked
   */
  private int guardar(Map<String, PedidoDaApi> fatos, Instant novoCursor, Instant teto) {
    int[] novos = new int[1];
    transacao.executeWithoutResult(
        status -> {
          fatos.forEach(
              (eventoId, pedido) -> {
                if (caixaDeEntrada.guardarSeAusente(
                    new RegistroDeEvento(
                        eventoId, pedido.id(), LeitorDeEventos.TIPO_DA_API, pedido.json(), null))) {
                  novos[0]++;
                }
              });
          // Also without a new position: a cursor ahead of the ceiling comes back to it.
          jdbc.sql(AVANCAR_CURSOR)
              .param("nome", CURSOR)
              .param(
                  "valor",
                  OffsetDateTime.ofInstant(
                      novoCursor == null ? Instant.EPOCH : novoCursor, relogio.getZone()))
              .param("teto", OffsetDateTime.ofInstant(teto, relogio.getZone()))
              .update();
        });
    cursorLido.accumulateAndGet(
        novoCursor == null ? Instant.EPOCH : novoCursor,
        (antes, depois) -> {
          Instant maior = antes == null || depois.isAfter(antes) ? depois : antes;
          return maior.isAfter(teto) ? teto : maior;
        });
    return novos[0];
  }

  static String eventoId(PedidoDaApi pedido) {
    return Interpretacao.eventoIdDaApi(
        pedido.id(), pedido.status(), pedido.sequence(), pedido.updatedAt());
  }
}
