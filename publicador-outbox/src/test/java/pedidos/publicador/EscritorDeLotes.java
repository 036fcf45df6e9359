package pedidos.publicador;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import pedidos.infra.InfraLocal;

/**
 * A steady stream of transactions, each one multi-row INSERT into the inbox and one into the
 * outbox: the rows of an INSERT share a commit (and the relay once lost rows sharing an LSN on
 * restart). Paced by a scheduler; remembers what committed, so a test can check that nothing was
 * lost.
 */
final class EscritorDeLotes implements AutoCloseable {

  private static final String INSERIR_EVENTOS =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
      SELECT CAST(? AS text) || '-' || i, CAST(? AS text) || '-' || i, 'order.created',
             jsonb_build_object('lote', CAST(? AS int), 'i', i)
        FROM generate_series(1, ?) AS i
      """;

  private static final String INSERIR_EFEITOS =
      """
      INSERT INTO outbox (pedido_id, efeito, status, total_centavos)
      SELECT CAST(? AS text) || '-' || i, 'liberar_separacao', 'pago', i
        FROM generate_series(1, ?) AS i
      """;

  private final DataSource banco = InfraLocal.compartilhada().postgres().dataSource();
  private final ScheduledExecutorService agenda = Executors.newSingleThreadScheduledExecutor();
  private final String prefixo;
  private final int eventosPorLote;
  private final int efeitosPorLote;
  private final AtomicInteger lotes = new AtomicInteger();
  private final Set<String> eventos = ConcurrentHashMap.newKeySet();
  private final Set<String> pedidosComEfeito = ConcurrentHashMap.newKeySet();
  private final AtomicReference<Throwable> falha = new AtomicReference<>();

  EscritorDeLotes(String prefixo, int eventosPorLote, int efeitosPorLote, long intervaloMs) {
    this.prefixo = prefixo;
    this.eventosPorLote = eventosPorLote;
    this.efeitosPorLote = efeitosPorLote;
    agenda.scheduleAtFixedRate(this::escrever, 0, intervaloMs, TimeUnit.MILLISECONDS);
  }

  private void escrever() {
    int lote = lotes.incrementAndGet();
    String base = prefixo + "l" + lote;
    try (Connection conexao = banco.getConnection()) {
      conexao.setAutoCommit(false);
      try (PreparedStatement inserir = conexao.prepareStatement(INSERIR_EVENTOS)) {
        inserir.setString(1, base + "-e");
        inserir.setString(2, base + "-p");
        inserir.setInt(3, lote);
        inserir.setInt(4, eventosPorLote);
        inserir.executeUpdate();
      }
      try (PreparedStatement inserir = conexao.prepareStatement(INSERIR_EFEITOS)) {
        inserir.setString(1, base + "-p");
        inserir.setInt(2, efeitosPorLote);
        inserir.executeUpdate();
      }
      conexao.commit();
      for (int i = 1; i <= eventosPorLote; i++) {
        eventos.add(base + "-e-" + i);
      }
      for (int i = 1; i <= efeitosPorLote; i++) {
        pedidosComEfeito.add(base + "-p-" + i);
      }
    } catch (SQLException | RuntimeException e) {
      falha.compareAndSet(null, e);
    }
  }

  /** Event ids committed so far. */
  Set<String> eventos() {
    verificar();
    return Set.copyOf(eventos);
  }

  /** Order ids of the outbox rows committed so far. */
  Set<String> pedidosComEfeito() {
    verificar();
    return Set.copyOf(pedidosComEfeito);
  }

  /** Stops writing; returns once the last transaction is over. */
  void parar() throws InterruptedException {
    agenda.shutdown();
    if (!agenda.awaitTermination(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("writer did not stop");
    }
    verificar();
  }

  private void verificar() {
    if (falha.get() != null) {
      throw new IllegalStateException("the writer failed", falha.get());
    }
  }

  @Override
  public void close() {
    agenda.shutdownNow();
  }
}
