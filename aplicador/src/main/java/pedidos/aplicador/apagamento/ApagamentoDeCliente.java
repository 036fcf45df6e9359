package pedidos.aplicador.apagamento;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.contrato.MascaraDeEmail;

/**
 * Erasure of one customer (README, "Data lifecycle"): the email is replaced by {@link #ANONIMO}
 * wherever the database holds it: the orders, the inbox payloads and reasons, the outbox snapshots,
 * the quarantined bodies and reasons, the relay's dead letters. Idempotent: a second run finds the
 * email nowhere and changes nothing.
 *
 * <p>Run as the schema's owner, like the migrations ({@code apagar-cliente}): it rewrites tables no
 * service may write (the relay's dead letters, effect snapshots, quarantined bodies), and it is a
 * rare act of an operator, not a service's work.
 *
 * <p>The email is matched as a whole address, ignoring case: not inside a longer one ({@code
 * ana@x.com} is not erased from {@code juliana@x.com}). Each order is rewritten in one transaction
 * under its advisory lock, so no apply of the order runs meanwhile and folds the old payloads back
 * into the order's row. An inbox row keeps the digest of its body as first stored, so the store's
 * redelivery of it is still a duplicate (and never brings the email back).
 */
public final class ApagamentoDeCliente {

  /** What the email becomes: a valid address, so every fact stays valid, in a reserved domain. */
  public static final String ANONIMO = "apagado@anonimizado.invalid";

  /** What a masked mention of the email becomes (the relay's dead letters mask emails). */
  static final String ANONIMO_MASCARADO = MascaraDeEmail.mascarar(ANONIMO);

  // A whole address: not preceded by a character of a local part, not followed by one of a
  // domain (a final '.' ending a sentence is not part of it). PostgreSQL's regular expressions.
  private static final String ANTES = "(?<![[:alnum:]!#$%&'*+/=?^_`{|}~.-])";
  private static final String DEPOIS = "(?![[:alnum:]-]|\\.[[:alnum:]])";

  // Finding the customer's orders reads every inbox payload: a rare command, a sequential scan.
  // The regular expression costs far more than the scan (docs/BENCHMARKS.md): a plain search for
  // the address narrows the rows first, and CASE keeps that order.
  static final String PEDIDOS_DO_CLIENTE =
      """
      SELECT id FROM pedidos WHERE lower(cliente_email) = lower(:email)
      UNION
      SELECT pedido_id FROM outbox WHERE lower(cliente_email) = lower(:email)
      UNION
      SELECT recurso_id FROM webhook_eventos
       WHERE CASE WHEN strpos(lower(payload::text), lower(:email)) > 0
                  THEN payload::text ~* :padrao ELSE false END
          OR CASE WHEN strpos(lower(motivo), lower(:email)) > 0
                  THEN motivo ~* :padrao ELSE false END
      """;

  static final String TRAVAR_PEDIDO =
      "SELECT pg_advisory_xact_lock(hashtextextended(:pedido, 0))::text";

  static final String ANONIMIZAR_PEDIDO =
      """
      UPDATE pedidos SET cliente_email = :anonimo, atualizado_em = now()
       WHERE id = :pedido AND lower(cliente_email) = lower(:email)
      """;

  static final String ANONIMIZAR_EVENTOS =
      """
      UPDATE webhook_eventos
         SET payload_sha256 = COALESCE(payload_sha256, resumo_do_corpo(payload)),
             payload = regexp_replace(payload::text, :padrao, :anonimo, 'gi')::jsonb,
             motivo = regexp_replace(motivo, :padrao, :anonimo, 'gi')
       WHERE recurso_id = :pedido AND (payload::text ~* :padrao OR motivo ~* :padrao)
      """;

  static final String ANONIMIZAR_EFEITOS =
      """
      UPDATE outbox SET cliente_email = :anonimo
       WHERE pedido_id = :pedido AND lower(cliente_email) = lower(:email)
      """;

  // The relay writes reasons with emails masked (a***@example.com): the masked form is replaced in
  // the dead letters of the customer's own rows (elsewhere it may be another customer's), the
  // whole address wherever it appears.
  static final String ANONIMIZAR_MORTOS =
      """
      WITH do_cliente AS (
        SELECT id FROM publicador_mortos
         WHERE chave ->> 'pedido_id' = ANY (CAST(:pedidos AS text[]))
            OR chave ->> 'evento_id' IN (SELECT evento_id FROM webhook_eventos
                                           WHERE recurso_id = ANY (CAST(:pedidos AS text[])))
      )
      UPDATE publicador_mortos m
         SET motivo = CASE WHEN m.id IN (SELECT id FROM do_cliente)
                           THEN regexp_replace(regexp_replace(m.motivo, :padrao, :anonimo, 'gi'),
                                               :padraoMascarado, :anonimoMascarado, 'gi')
                           ELSE regexp_replace(m.motivo, :padrao, :anonimo, 'gi') END
       WHERE m.motivo ~* :padrao
          OR (m.motivo ~* :padraoMascarado AND m.id IN (SELECT id FROM do_cliente))
      """;

  // Bodies are bytes (maybe not even UTF-8): PostgreSQL narrows the rows down, the exact
  // replacement is made here. The escape encoding leaves an ASCII address as it is; the bytes as
  // given find any other.
  static final String QUARENTENA_DO_CLIENTE =
      """
      SELECT id, corpo FROM webhook_quarentena
       WHERE id > :depois
         AND (strpos(lower(encode(corpo, 'escape')), lower(:email)) > 0
              OR position(convert_to(:email, 'UTF8') IN corpo) > 0
              OR motivo ~* :padrao)
       ORDER BY id
       LIMIT 100
      """;

  static final String ANONIMIZAR_QUARENTENA =
      """
      UPDATE webhook_quarentena
         SET corpo = :corpo, motivo = regexp_replace(motivo, :padrao, :anonimo, 'gi')
       WHERE id = :id
      """;

  // The anonymised body is already there, from another row: that row holds it.
  static final String APAGAR_DA_QUARENTENA = "DELETE FROM webhook_quarentena WHERE id = :id";

  private static final String CHAVE_DUPLICADA = "23505";

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;

  public ApagamentoDeCliente(JdbcClient jdbc, TransactionTemplate transacao) {
    this.jdbc = jdbc;
    this.transacao = transacao;
  }

  /**
   * @throws IllegalArgumentException when {@code email} is not an address, or is {@link #ANONIMO}
   */
  public ResumoDoApagamento apagar(String email) {
    String limpo = validar(email);
    String padrao = padrao(limpo);
    String padraoMascarado = ANTES + escapar(MascaraDeEmail.mascarar(limpo)) + DEPOIS;

    Set<String> pedidos =
        new LinkedHashSet<>(
            jdbc.sql(PEDIDOS_DO_CLIENTE)
                .param("email", limpo)
                .param("padrao", padrao)
                .query(String.class)
                .list());
    long linhasDePedidos = 0;
    long eventos = 0;
    long efeitos = 0;
    for (String pedido : pedidos) {
      long[] feito =
          transacao.execute(
              status -> {
                jdbc.sql(TRAVAR_PEDIDO).param("pedido", pedido).query(String.class).single();
                return new long[] {
                  jdbc.sql(ANONIMIZAR_PEDIDO)
                      .param("anonimo", ANONIMO)
                      .param("pedido", pedido)
                      .param("email", limpo)
                      .update(),
                  jdbc.sql(ANONIMIZAR_EVENTOS)
                      .param("padrao", padrao)
                      .param("anonimo", ANONIMO)
                      .param("pedido", pedido)
                      .update(),
                  jdbc.sql(ANONIMIZAR_EFEITOS)
                      .param("anonimo", ANONIMO)
                      .param("pedido", pedido)
                      .param("email", limpo)
                      .update()
                };
              });
      linhasDePedidos += feito[0];
      eventos += feito[1];
      efeitos += feito[2];
    }
    long mortos =
        jdbc.sql(ANONIMIZAR_MORTOS)
            .param("pedidos", pedidos.toArray(String[]::new))
            .param("padrao", padrao)
            .param("anonimo", ANONIMO)
            .param("padraoMascarado", padraoMascarado)
            .param("anonimoMascarado", ANONIMO_MASCARADO)
            .update();
    long quarentena = anonimizarQuarentena(limpo, padrao);
    return new ResumoDoApagamento(
        pedidos.size(), linhasDePedidos, eventos, efeitos, quarentena, mortos);
  }

  private long anonimizarQuarentena(String email, String padrao) {
    Pattern noCorpo = padraoNosBytes(email);
    byte[] anonimo = ANONIMO.getBytes(StandardCharsets.ISO_8859_1);
    long alterados = 0;
    long depois = 0;
    while (true) {
      List<Object[]> linhas =
          jdbc.sql(QUARENTENA_DO_CLIENTE)
              .param("depois", depois)
              .param("padrao", padrao)
              .param("email", email)
              .query((rs, n) -> new Object[] {rs.getLong("id"), rs.getBytes("corpo")})
              .list();
      if (linhas.isEmpty()) {
        return alterados;
      }
      for (Object[] linha : linhas) {
        long id = (Long) linha[0];
        depois = id;
        // Bytes as ISO-8859-1 characters, one for one: the address is replaced byte for byte,
        // whatever else the body holds.
        String corpo = new String((byte[]) linha[1], StandardCharsets.ISO_8859_1);
        String novo =
            noCorpo
                .matcher(corpo)
                .replaceAll(
                    Matcher.quoteReplacement(new String(anonimo, StandardCharsets.ISO_8859_1)));
        alterados += anonimizarNaQuarentena(id, novo.getBytes(StandardCharsets.ISO_8859_1), padrao);
      }
    }
  }

  private int anonimizarNaQuarentena(long id, byte[] corpo, String padrao) {
    try {
      return jdbc.sql(ANONIMIZAR_QUARENTENA)
          .param("corpo", corpo)
          .param("padrao", padrao)
          .param("anonimo", ANONIMO)
          .param("id", id)
          .update();
    } catch (DataAccessException e) {
      if (!CHAVE_DUPLICADA.equals(estadoSql(e))) {
        throw e;
      }
      return jdbc.sql(APAGAR_DA_QUARENTENA).param("id", id).update();
    }
  }

  private static String estadoSql(Throwable falha) {
    for (Throwable causa = falha; causa != null; causa = causa.getCause()) {
      if (causa instanceof SQLException sql) {
        return sql.getSQLState();
      }
    }
    return null;
  }

  public static String validar(String email) {
    String limpo = email == null ? "" : email.strip();
    int arroba = limpo.lastIndexOf('@');
    if (arroba <= 0
        || arroba == limpo.length() - 1
        || limpo.length() > 320
        || limpo.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
      throw new IllegalArgumentException("not an email address: " + MascaraDeEmail.mascarar(limpo));
    }
    if (limpo.equalsIgnoreCase(ANONIMO)) {
      throw new IllegalArgumentException(
          ANONIMO + " is what erased emails become: it is no one's to erase");
    }
    return limpo;
  }

  /** The address as a whole, ignoring case, as a PostgreSQL regular expression. */
  static String padrao(String email) {
    return ANTES + escapar(email) + DEPOIS;
  }

  /** The same rule for the bytes of a body read as ISO-8859-1 characters. */
  static Pattern padraoNosBytes(String email) {
    String bytes = new String(email.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    return Pattern.compile(
        "(?<![\\p{Alnum}!#$%&'*+/=?^_`{|}~.-])"
            + Pattern.quote(bytes)
            + "(?![\\p{Alnum}-]|\\.\\p{Alnum})",
        Pattern.CASE_INSENSITIVE);
  }

  /** Every character but letters and digits taken literally (a backslash before it, in AREs). */
  private static String escapar(String texto) {
    StringBuilder escapado = new StringBuilder(texto.length() * 2);
    texto
        .codePoints()
        .forEach(
            c -> {
              if (!Character.isLetterOrDigit(c)) {
                escapado.append('\\');
              }
              escapado.appendCodePoint(c);
            });
    return escapado.toString();
  }
}
