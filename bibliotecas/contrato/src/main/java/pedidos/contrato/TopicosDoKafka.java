package pedidos.contrato;

import java.time.Duration;

/**
 * The Kafka topics between the relay, the aplicador and the picking system: their names, the
 * headers their records carry, the consumer groups the broker's ACLs name, and the defaults the
 * relay creates the topics with and the aplicador checks them against (docs/kafka.md, "Kafka
 * topics").
 *
 * <table>
 *   <caption>What travels on each topic</caption>
 *   <tr><th>topic</th><th>key</th><th>value</th><th>headers</th></tr>
 *   <tr><td>{@value #EVENTOS}</td><td>order id</td><td>{@link RegistroDeEvento}</td>
 *       <td>{@value #CABECALHO_DE_ASSINATURA}</td></tr>
 *   <tr><td>{@value #DESCARTE}</td><td>as consumed</td><td>the record that can never be applied</td>
 *       <td>Spring Kafka's {@code kafka_dlt-*}, with the reason</td></tr>
 *   <tr><td>{@value #EFEITOS}</td><td>order id</td><td>{@link RegistroDeEfeito}</td>
 *       <td>{@value #CABECALHO_DE_IDEMPOTENCIA}, {@value #CABECALHO_DE_ASSINATURA}</td></tr>
 * </table>
 *
 * <p>Who may create which topic is not here: the relay creates and corrects them, the aplicador
 * only checks them; both take these as the defaults of their settings, so the two cannot disagree
 * unless an operator configures them to.
 */
public final class TopicosDoKafka {

  /** Stored events, from the inbox, for the aplicador; the replay command reads it again. */
  public static final String EVENTOS = "loja.eventos";

  /** The aplicador's dead letters of {@link #EVENTOS}. */
  public static final String DESCARTE = EVENTOS + ".DLT";

  /** Effects for the picking system, from the outbox. */
  public static final String EFEITOS = "separacao.efeitos";

  /** The relay's signature on every record it writes ({@link AssinaturaDeRegistro}). */
  public static final String CABECALHO_DE_ASSINATURA = "pedidos-assinatura";

  /**
   * On {@link #EFEITOS}: {@code pedido_id:efeito} ({@link RegistroDeEfeito#idempotencia()}), the
   * key the picking system deduplicates by.
   */
  public static final String CABECALHO_DE_IDEMPOTENCIA = "idempotency-key";

  /** The aplicador's consumer group: the only group allowed to read {@link #EVENTOS}. */
  public static final String GRUPO_DO_APLICADOR = "aplicador";

  /** The picking system reads {@link #EFEITOS} in groups whose names start with this. */
  public static final String PREFIXO_DOS_GRUPOS_DA_SEPARACAO = "separacao";

  /**
   * Partitions of each topic: the listener threads of every aplicador of the deployment (README,
   * "Scaling out").
   */
  public static final int PARTICOES = 12;

  /**
   * How far back replay reaches: {@link #EVENTOS} keeps its records at least this long, and the
   * aplicador refuses a topic that keeps less (docs/runbook.md, "Operations runbook").
   */
  public static final Duration JANELA_DE_REPLAY = Duration.ofDays(14);

  /** Dead letters hold whole payloads too and are only read to diagnose: the replay window. */
  public static final Duration RETENCAO_DO_DESCARTE = JANELA_DE_REPLAY;

  /** How far back the picking system can re-read its instructions; they carry no personal data. */
  public static final Duration RETENCAO_DOS_EFEITOS = Duration.ofDays(30);

  private TopicosDoKafka() {}
}
