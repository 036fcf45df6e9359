package pedidos.publicador.motor;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;
import org.apache.kafka.connect.util.Callback;
import pedidos.publicador.configuracao.ConexaoDoBanco;

/**
 * Debezium's offsets kept in the captured database itself (table {@code publicador_offsets}).
 *
 * <p>Public with a no-argument constructor only because the engine instantiates it by class name
 * ({@code offset.storage}); it is no API. It reads its connection from the engine's properties
 * ({@link #URL}, {@link #USUARIO}, {@link #SENHA}) and keeps its rows under the engine's {@code
 * name}, which the relay sets to the slot name.
 *
 * <p>A write is acknowledged only once committed: the engine confirms a position to the slot only
 * after the flush that stored it succeeded, so a failed write costs re-sends, never a gap. The
 * memory map is updated after the commit for the same reason.
 */
public class ArmazemDeOffsets extends MemoryOffsetBackingStore {

  static final String URL = "offset.storage.pedidos.url";
  static final String USUARIO = "offset.storage.pedidos.user";
  // "password" in the name: Debezium masks such keys wherever it prints its configuration.
  static final String SENHA = "offset.storage.pedidos.password";

  static final String LER =
      """
      SELECT chave, valor FROM publicador_offsets WHERE nome = ?
      """;

  static final String GRAVAR =
      """
      INSERT INTO publicador_offsets (nome, chave, valor) VALUES (?, ?, ?)
      ON CONFLICT (nome, chave) DO UPDATE SET valor = EXCLUDED.valor, gravado_em = now()
      """;

  static final String APAGAR =
      """
      DELETE FROM publicador_offsets WHERE nome = ? AND chave = ?
      """;

  // A write waits at most offset.flush.timeout.ms (10 s) for the engine anyway; past that the flush
  // fails and is retried with the next one.
  private static final Duration ESPERA_DO_SOCKET = Duration.ofSeconds(15);
  private static final Duration ESPERA_DO_COMANDO = Duration.ofSeconds(10);

  private String url;
  private Properties propriedades;
  private String nome;

  public ArmazemDeOffsets() {}

  @Override
  public void configure(WorkerConfig configuracao) {
    super.configure(configuracao);
    Map<String, String> originais = configuracao.originalsStrings();
    url = obrigatorio(originais, URL);
    nome = obrigatorio(originais, "name");
    propriedades =
        ConexaoDoBanco.propriedadesDoDriver(
            obrigatorio(originais, USUARIO),
            originais.getOrDefault(SENHA, ""),
            "publicador-outbox-offsets",
            ESPERA_DO_SOCKET,
            ESPERA_DO_COMANDO);
  }

  @Override
  public synchronized void start() {
    super.start();
    try (Connection conexao = conectar();
        PreparedStatement ler = conexao.prepareStatement(LER)) {
      ler.setString(1, nome);
      try (ResultSet linhas = ler.executeQuery()) {
        while (linhas.next()) {
          data.put(ByteBuffer.wrap(linhas.getBytes(1)), ByteBuffer.wrap(linhas.getBytes(2)));
        }
      }
    } catch (SQLException e) {
      throw new ConnectException("could not read the offsets of " + nome, e);
    }
  }

  @Override
  public Future<Void> set(Map<ByteBuffer, ByteBuffer> valores, Callback<Void> callback) {
    return executor.submit(
        () -> {
          try {
            gravar(valores);
          } catch (SQLException | RuntimeException e) {
            ConnectException falha =
                new ConnectException("could not store the offsets of " + nome, e);
            if (callback != null) {
              callback.onCompletion(falha, null);
            }
            throw falha;
          }
          data.putAll(valores);
          if (callback != null) {
            callback.onCompletion(null, null);
          }
          return null;
        });
  }

  @Override
  public Set<Map<String, Object>> connectorPartitions(String connectorName) {
    // Only Kafka Connect's REST API asks this; the embedded engine never does.
    return Set.of();
  }

  private void gravar(Map<ByteBuffer, ByteBuffer> valores) throws SQLException {
    try (Connection conexao = conectar()) {
      conexao.setAutoCommit(false);
      try (PreparedStatement gravar = conexao.prepareStatement(GRAVAR);
          PreparedStatement apagar = conexao.prepareStatement(APAGAR)) {
        for (Map.Entry<ByteBuffer, ByteBuffer> valor : valores.entrySet()) {
          if (valor.getValue() == null) {
            apagar.setString(1, nome);
            apagar.setBytes(2, bytes(valor.getKey()));
            apagar.addBatch();
          } else {
            gravar.setString(1, nome);
            gravar.setBytes(2, bytes(valor.getKey()));
            gravar.setBytes(3, bytes(valor.getValue()));
            gravar.addBatch();
          }
        }
        gravar.executeBatch();
        apagar.executeBatch();
        conexao.commit();
      } catch (SQLException | RuntimeException e) {
        conexao.rollback();
        throw e;
      }
    }
  }

  /**
   * A connection per write rather than a held one: a write happens about once a second, and a fresh
   * connection has nothing stale to recover after a database restart.
   */
  private Connection conectar() throws SQLException {
    return DriverManager.getConnection(url, propriedades);
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer copia = buffer.duplicate();
    byte[] bytes = new byte[copia.remaining()];
    copia.get(bytes);
    return bytes;
  }

  private static String obrigatorio(Map<String, String> originais, String chave) {
    String valor = originais.get(chave);
    if (valor == null || valor.isBlank()) {
      throw new ConnectException("offset store needs the property " + chave);
    }
    return valor;
  }
}
