package pedidos.publicador.mortos;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import pedidos.contrato.MascaraDeEmail;
import pedidos.publicador.linhas.Morto;
import pedidos.publicador.linhas.OrigemDaLinha;
import pedidos.publicador.linhas.Via;
import pedidos.publicador.metricas.MetricasDoPublicador;

/**
 * The dead-letter table of the relay ({@code publicador_mortos}, {@code V6}): rows the relay gave
 * up on, with their coordinates and the reason.
 *
 * <p>Every write here is committed when {@link #registrar} returns, and callers call it before they
 * mark anything processed or sent: a position never moves past a row without this trace.
 */
@Component
public class RegistroDeMortos {

  private static final Logger log = LoggerFactory.getLogger(RegistroDeMortos.class);

  // One open row per captured row: meeting it again (a replayed batch, the fallback, a failed
  // re-publish) bumps tentativas and keeps the latest reason. The WAL position, once known, stays.
  static final String REGISTRAR =
      """
      INSERT INTO publicador_mortos (tabela, chave, lsn, motivo)
      VALUES (:tabela, CAST(:chave AS jsonb), CAST(:lsn AS pg_lsn), :motivo)
      ON CONFLICT (tabela, chave) WHERE republicado_em IS NULL DO UPDATE
         SET motivo = EXCLUDED.motivo,
             tentativas = publicador_mortos.tentativas + 1,
             atualizado_em = now(),
             lsn = coalesce(EXCLUDED.lsn, publicador_mortos.lsn)
      """;

  static final String REPUBLICADO =
      """
      UPDATE publicador_mortos SET republicado_em = now(), atualizado_em = now()
       WHERE id = :id AND republicado_em IS NULL
      """;

  static final String ABERTOS =
      """
      SELECT count(*) FROM publicador_mortos WHERE republicado_em IS NULL
      """;

  private final JdbcClient jdbc;
  private final MetricasDoPublicador metricas;
  private final AtomicLong registrados = new AtomicLong();
  private volatile String ultimo;

  RegistroDeMortos(JdbcClient jdbc, MetricasDoPublicador metricas) {
    this.jdbc = jdbc;
    this.metricas = metricas;
  }

  /** Records each row, committed one by one; throws if the database does not take them. */
  public void registrar(List<Morto> mortos, Via via) {
    for (Morto morto : mortos) {
      OrigemDaLinha origem = morto.origem();
      jdbc.sql(REGISTRAR)
          .param("tabela", origem.tabela().nome())
          .param("chave", origem.chave())
          .param("lsn", origem.lsnDoPostgres())
          .param("motivo", morto.motivo())
          .update();
      registrados.incrementAndGet();
      // Coordinates only: health details are no place for a row or for a reason that quotes one.
      ultimo =
          origem.tabela().nome()
              + " "
              + origem.chave()
              + (origem.lsn() == null ? "" : " at LSN " + origem.lsnDoPostgres());
      metricas.morta(origem.tabela(), via);
      log.error(
          "Dead-lettered a row of {} with key {} at LSN {} ({}); the relay goes on without it",
          origem.tabela().nome(),
          origem.chave(),
          origem.lsnDoPostgres(),
          via.tag(),
          MascaraDeEmail.mascararNaExcecao(morto.causa()));
    }
  }

  /** Closes a dead letter whose row Kafka has now acknowledged. */
  void republicado(long id) {
    jdbc.sql(REPUBLICADO).param("id", id).update();
  }

  /** Dead letters not yet re-published, in the table. */
  public long abertos() {
    return jdbc.sql(ABERTOS).query(Long.class).single();
  }

  /** Rows this process dead-lettered since it started. */
  public long registrados() {
    return registrados.get();
  }

  /**
   * The latest dead letter of this process: its table, key and LSN, never its content (the reason
   * is in {@code publicador_mortos}); null if none.
   */
  public String ultimo() {
    return ultimo;
  }
}
