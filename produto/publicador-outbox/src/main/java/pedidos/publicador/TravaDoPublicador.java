package pedidos.publicador;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The lease that makes one relay active per slot: a session-level advisory lock held on a
 * connection of its own.
 *
 * <p>A session lock dies with its connection, so a relay that crashes, is killed or loses the
 * database loses the lease too, and a standby takes it on its next try. The connection is opened
 * outside the pool on purpose: a pooled connection goes back to the pool still holding the lock,
 * and the pool may close it at any time.
 *
 * <p>Used only by the supervisor's thread; synchronized so that health checks read a consistent
 * state.
 */
@Component
class TravaDoPublicador {

  private static final Logger log = LoggerFactory.getLogger(TravaDoPublicador.class);
  private static final int ESPERA_DA_VALIDACAO_EM_SEGUNDOS = 2;
  private static final Duration ESPERA_DO_SOCKET = Duration.ofSeconds(10);
  // pg_try_advisory_lock never waits; anything slower is a server in trouble.
  private static final Duration ESPERA_DO_COMANDO = Duration.ofSeconds(5);

  // The two-int4 form lives in a key space of its own (objsubid 2): the applier's per-order locks
  // use the one-bigint form, so no order id can ever collide with the lease.
  static final String TENTAR =
      """
      SELECT pg_try_advisory_lock(?, hashtext(?))
      """;

  // "publ" in ASCII: the class of every lease of this relay; the slot name tells them apart.
  static final int CLASSE_DA_TRAVA = 0x7075626C;

  private final ConexaoDoBanco banco;
  private final String nomeDaTrava;
  private Connection conexao;
  private boolean adquirida;
  private boolean falhaAvisada;

  TravaDoPublicador(ConexaoDoBanco banco, PublicadorProperties propriedades) {
    this.banco = banco;
    this.nomeDaTrava = "publicador-outbox:" + propriedades.slot();
  }

  /**
   * True when this instance holds the lease, trying to take it if it does not (or no longer does:
   * after a dropped connection, on a new one, unless another instance was faster).
   */
  synchronized boolean tentarAdquirir() {
    if (adquirida && valida()) {
      return true;
    }
    try {
      if (conexao == null || conexao.isClosed()) {
        conexao = conectar();
      }
      try (PreparedStatement tentar = conexao.prepareStatement(TENTAR)) {
        tentar.setInt(1, CLASSE_DA_TRAVA);
        tentar.setString(2, nomeDaTrava);
        try (ResultSet resultado = tentar.executeQuery()) {
          resultado.next();
          adquirida = resultado.getBoolean(1);
        }
      }
      falhaAvisada = false;
      return adquirida;
    } catch (SQLException e) {
      // The database is unreachable: nobody can stream anyway. Warn once per outage.
      if (!falhaAvisada) {
        log.warn("Could not try the lease {}: {}", nomeDaTrava, e.getMessage());
        falhaAvisada = true;
      }
      fecharConexao();
      return false;
    }
  }

  /** Whether the lease is still held: its connection answers. */
  synchronized boolean valida() {
    if (!adquirida) {
      return false;
    }
    try {
      if (conexao.isValid(ESPERA_DA_VALIDACAO_EM_SEGUNDOS)) {
        return true;
      }
    } catch (SQLException e) {
      log.debug("Lease connection check failed", e);
    }
    log.warn("Lost the lease {}: its connection is gone", nomeDaTrava);
    liberar();
    return false;
  }

  synchronized boolean adquirida() {
    return adquirida;
  }

  /** Gives the lease up by closing its session; a standby may take it at once. */
  synchronized void liberar() {
    adquirida = false;
    fecharConexao();
  }

  private Connection conectar() throws SQLException {
    // A half-open TCP connection must not make a dead lease look alive for long: every call on it
    // (isValid included) gives up within the socket timeout.
    return DriverManager.getConnection(
        banco.jdbcUrl(),
        banco.propriedadesDoDriver("publicador-outbox-trava", ESPERA_DO_SOCKET, ESPERA_DO_COMANDO));
  }

  private void fecharConexao() {
    if (conexao == null) {
      return;
    }
    try {
      conexao.close();
    } catch (SQLException e) {
      log.debug("Error closing the lease connection", e);
    }
    conexao = null;
  }
}
