package pedidos.aplicador.painel;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.MascaraDeEmail;

/**
 * The bulk re-derivation jobs ({@code rederivacoes_em_massa}, V17): creating one from a filter (its
 * set of orders frozen then), the operators' transitions, and what the page and the command line
 * read. The runner ({@link ExecutorDeRederivacoes}) advances them.
 *
 * <p>A job goes {@code simulando} (the dry run) → {@code simulado} (waiting for an operator) →
 * {@code executando} ⇄ {@code pausado} → {@code concluido}; any state but the last can be {@code
 * cancelado}. Every transition is one conditional {@code UPDATE}, so two operators, or an operator
 * and the runner, never both win: the loser is told what state the job is in.
 */
@Component
public class LotesDeRederivacao {

  /** Order ids listed by an operator: the most one job takes from a list. */
  static final int LISTA_MAXIMA = 100_000;

  static final String CRIAR =
      """
      INSERT INTO rederivacoes_em_massa
        (operador, filtro, estado, pedidos_por_segundo, pedidos_total, fatos_total)
      VALUES (:operador, :filtro, 'simulando', :ritmo, 0, 0)
      RETURNING id
      """;

  /**
   * The orders with a stored event received in the window that matches the filter, through the BRIN
   * index on {@code recebido_em} (V11). One more than the maximum tells a set too large.
   */
  static final String RESOLVER_POR_JANELA =
      """
      INSERT INTO rederivacoes_em_massa_pedidos (lote, pedido_id)
      SELECT :lote, recurso_id FROM (
        SELECT DISTINCT recurso_id FROM webhook_eventos
         WHERE recebido_em >= :desde AND recebido_em < :ate
           AND (CAST(:tipo AS text) IS NULL OR tipo = :tipo)
           AND (CAST(:veredicto AS text) IS NULL OR resultado = :veredicto)
         LIMIT :limite
      ) achados
      """;

  /** The same among listed orders, through {@code recurso_id}'s index (V2). */
  static final String RESOLVER_POR_LISTA =
      """
      INSERT INTO rederivacoes_em_massa_pedidos (lote, pedido_id)
      SELECT :lote, recurso_id FROM (
        SELECT DISTINCT recurso_id FROM webhook_eventos
         WHERE recurso_id = ANY(CAST(:lista AS text[]))
           AND (CAST(:desde AS timestamptz) IS NULL OR recebido_em >= :desde)
           AND (CAST(:ate AS timestamptz) IS NULL OR recebido_em < :ate)
           AND (CAST(:tipo AS text) IS NULL OR tipo = :tipo)
           AND (CAST(:veredicto AS text) IS NULL OR resultado = :veredicto)
         LIMIT :limite
      ) achados
      """;

  static final String CONTAR_FATOS =
      """
      SELECT count(*) FROM webhook_eventos e
        JOIN rederivacoes_em_massa_pedidos p ON p.pedido_id = e.recurso_id
       WHERE p.lote = :lote
      """;

  static final String TOTAIS =
      """
      UPDATE rederivacoes_em_massa SET pedidos_total = :pedidos, fatos_total = :fatos
       WHERE id = :lote
      """;

  static final String COLUNAS =
      """
      id, operador, filtro, estado, pedidos_por_segundo, pedidos_total, fatos_total,
      simulacao_feitos, simulacao_mudados, simulacao_efeitos, simulacao_falhas,
      execucao_feitos, execucao_mudados, execucao_efeitos, execucao_falhas,
      executado_por, criado_em, atualizado_em, terminado_em
      """;

  static final String LER = "SELECT " + COLUNAS + " FROM rederivacoes_em_massa WHERE id = :lote";

  static final String RECENTES =
      "SELECT " + COLUNAS + " FROM rederivacoes_em_massa ORDER BY id DESC LIMIT :limite";

  static final String MUDANCAS =
      """
      SELECT fase, pedido_id, antes, depois, efeitos FROM rederivacoes_em_massa_mudancas
       WHERE lote = :lote
       ORDER BY fase DESC, pedido_id
       LIMIT :limite
      """;

  /** An operator's transition: from one of the states listed to another. */
  static final String MUDAR_ESTADO =
      """
      UPDATE rederivacoes_em_massa
         SET estado = :para, atualizado_em = now(),
             terminado_em = CASE WHEN :para = 'cancelado' THEN now() END
       WHERE id = :lote AND estado = ANY(CAST(:de AS text[]))
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;
  private final Auditoria auditoria;
  private final AplicadorProperties.RederivacaoEmMassa config;

  LotesDeRederivacao(
      JdbcClient jdbc,
      TransactionTemplate transacao,
      Auditoria auditoria,
      AplicadorProperties propriedades) {
    this.jdbc = jdbc;
    this.transacao = transacao;
    this.auditoria = auditoria;
    this.config = propriedades.rederivacaoEmMassa();
  }

  /**
   * What selects a job's orders: the orders with at least one stored event received in the window,
   * of the type, with the verdict (an anomaly's kind is its verdict), and, when a list is given,
   * among the orders listed. A window or a list is required: never "every order".
   */
  public record Filtro(
      Instant desde, Instant ate, String tipo, String veredicto, List<String> pedidos) {

    public Filtro {
      tipo = vazioENulo(tipo);
      veredicto = vazioENulo(veredicto);
      if (pedidos != null) {
        Set<String> unicos = new LinkedHashSet<>();
        for (String pedido : pedidos) {
          if (pedido != null && !pedido.isBlank()) {
            unicos.add(pedido.strip());
          }
        }
        pedidos = unicos.isEmpty() ? null : List.copyOf(unicos);
      }
    }

    /** Order ids separated by lines, commas or spaces, as an operator pastes or uploads them. */
    public static List<String> lerLista(String texto) {
      return texto == null || texto.isBlank() ? null : List.of(texto.strip().split("[\\s,;]+"));
    }

    /**
     * @throws IllegalArgumentException when it has neither a window nor a list, or an empty window
     */
    public void validar() {
      if (pedidos == null && (desde == null || ate == null)) {
        throw new IllegalArgumentException(
            "give a window of arrival (from and to) or a list of order ids: a job never takes"
                + " every order");
      }
      if (desde != null && ate != null && !desde.isBefore(ate)) {
        throw new IllegalArgumentException(
            "the window is empty: from " + desde + " is not before to " + ate);
      }
      if (pedidos != null && pedidos.size() > LISTA_MAXIMA) {
        throw new IllegalArgumentException(
            "the list has " + pedidos.size() + " ids: at most " + LISTA_MAXIMA + " per job");
      }
    }

    /** The filter in words, as the job, the page and the audit show it. */
    public String emPalavras() {
      List<String> partes = new ArrayList<>();
      if (desde != null || ate != null) {
        partes.add(
            "received from " + (desde == null ? "-" : desde) + " to " + (ate == null ? "-" : ate));
      }
      if (tipo != null) {
        partes.add("type " + tipo);
      }
      if (veredicto != null) {
        partes.add("verdict " + veredicto);
      }
      if (pedidos != null) {
        partes.add("among " + pedidos.size() + " listed order(s)");
      }
      return String.join(", ", partes);
    }

    private static String vazioENulo(String valor) {
      return valor == null || valor.isBlank() ? null : valor.strip();
    }
  }

  /** A job as the page and the command line show it. */
  public record Lote(
      long id,
      String operador,
      String filtro,
      String estado,
      int pedidosPorSegundo,
      int pedidosTotal,
      long fatosTotal,
      Contagem simulacao,
      Contagem execucao,
      String executadoPor,
      Instant criadoEm,
      Instant atualizadoEm,
      Instant terminadoEm) {

    /** Whether nothing more will happen to it. */
    public boolean terminado() {
      return CANCELADO.equals(estado) || CONCLUIDO.equals(estado);
    }

    /** One line: state, progress of the phase under way and its counts. */
    public String linhaDeProgresso() {
      boolean simulando = SIMULANDO.equals(estado) || SIMULADO.equals(estado);
      Contagem c = simulando ? simulacao : execucao;
      int porcento = pedidosTotal == 0 ? 100 : (int) (100L * c.feitos() / pedidosTotal);
      return "job %d %s: %s %d/%d orders (%d%%), %s %d, effects %s %d, failed %d"
          .formatted(
              id,
              estado,
              simulando ? "dry run" : "run",
              c.feitos(),
              pedidosTotal,
              porcento,
              simulando ? "would change" : "changed",
              c.mudados(),
              simulando ? "that would be born" : "born",
              c.efeitos(),
              c.falhas());
    }
  }

  /**
   * The counts of one phase: orders done, orders whose state, fields or verdicts changed (or would
   * change), effects born (or that would be born: forced mode should bear none), failures.
   */
  public record Contagem(int feitos, int mudados, int efeitos, int falhas) {}

  /** A changed order, before and after. */
  record Mudanca(String fase, String pedidoId, String antes, String depois, String efeitos) {}

  static final String SIMULANDO = "simulando";
  static final String SIMULADO = "simulado";
  static final String EXECUTANDO = "executando";
  static final String PAUSADO = "pausado";
  static final String CANCELADO = "cancelado";
  static final String CONCLUIDO = "concluido";

  /**
   * Creates a job in dry run, its set resolved now.
   *
   * @param pedidosPorSegundo the pace asked for; capped by the configured one; 0 or less: that one
   * @return the new job
   * @throws IllegalArgumentException when the filter is incomplete, matches no order or too many
   */
  public Lote criar(String operador, Filtro filtro, int pedidosPorSegundo) {
    filtro.validar();
    int ritmo =
        pedidosPorSegundo <= 0
            ? config.pedidosPorSegundo()
            : Math.min(pedidosPorSegundo, config.pedidosPorSegundo());
    long id =
        transacao.execute(
            status -> {
              long lote =
                  jdbc.sql(CRIAR)
                      .param("operador", operador)
                      .param("filtro", filtro.emPalavras())
                      .param("ritmo", ritmo)
                      .query(Long.class)
                      .single();
              int pedidos =
                  jdbc.sql(filtro.pedidos() == null ? RESOLVER_POR_JANELA : RESOLVER_POR_LISTA)
                      .param("lote", lote)
                      .param("desde", paraTimestamp(filtro.desde()))
                      .param("ate", paraTimestamp(filtro.ate()))
                      .param("tipo", filtro.tipo())
                      .param("veredicto", filtro.veredicto())
                      .param(
                          "lista",
                          filtro.pedidos() == null ? null : filtro.pedidos().toArray(String[]::new))
                      .param("limite", config.maximoDePedidos() + 1)
                      .update();
              if (pedidos == 0) {
                throw new IllegalArgumentException(
                    "no order has a stored event that matches: " + filtro.emPalavras());
              }
              if (pedidos > config.maximoDePedidos()) {
                throw new IllegalArgumentException(
                    "more than "
                        + config.maximoDePedidos()
                        + " orders match ("
                        + filtro.emPalavras()
                        + "): narrow the filter, or run several jobs"
                        + " (aplicador.rederivacao-em-massa.maximo-de-pedidos)");
              }
              long fatos = jdbc.sql(CONTAR_FATOS).param("lote", lote).query(Long.class).single();
              jdbc.sql(TOTAIS)
                  .param("lote", lote)
                  .param("pedidos", pedidos)
                  .param("fatos", fatos)
                  .update();
              return lote;
            });
    return ler(id).orElseThrow();
  }

  public Optional<Lote> ler(long id) {
    return jdbc.sql(LER).param("lote", id).query(LotesDeRederivacao::lote).optional();
  }

  List<Lote> recentes(int limite) {
    return jdbc.sql(RECENTES).param("limite", limite).query(LotesDeRederivacao::lote).list();
  }

  List<Mudanca> mudancas(long id, int limite) {
    return jdbc.sql(MUDANCAS)
        .param("lote", id)
        .param("limite", limite)
        .query(
            (rs, n) ->
                new Mudanca(
                    rs.getString("fase"),
                    rs.getString("pedido_id"),
                    rs.getString("antes"),
                    rs.getString("depois"),
                    rs.getString("efeitos")))
        .list();
  }

  /** The dry run is done and looked right: run it. */
  public Desfecho confirmar(long id) {
    return mudar(id, List.of(SIMULADO), EXECUTANDO, "run confirmed");
  }

  public Desfecho pausar(long id) {
    return mudar(id, List.of(EXECUTANDO), PAUSADO, "paused");
  }

  public Desfecho retomar(long id) {
    return mudar(id, List.of(PAUSADO), EXECUTANDO, "resumed");
  }

  /** Stops a job for good; what it did stays done (each order's re-derivation is whole). */
  public Desfecho cancelar(long id) {
    // The cancellation and the job's audit row commit together.
    return transacao.execute(
        status -> {
          Desfecho desfecho =
              mudar(id, List.of(SIMULANDO, SIMULADO, EXECUTANDO, PAUSADO), CANCELADO, "cancelled");
          if (Desfecho.FEITO.equals(desfecho.resultado())) {
            ler(id).ifPresent(this::auditarFim);
          }
          return desfecho;
        });
  }

  private Desfecho mudar(long id, List<String> de, String para, String feito) {
    int mudou =
        jdbc.sql(MUDAR_ESTADO)
            .param("lote", id)
            .param("de", de.toArray(String[]::new))
            .param("para", para)
            .update();
    Lote lote = ler(id).orElseThrow(() -> new IllegalArgumentException("there is no job " + id));
    if (mudou == 1) {
      return Desfecho.feito("job " + id + " " + feito + ": " + lote.linhaDeProgresso(), null);
    }
    if (lote.estado().equals(para)) {
      return Desfecho.nadaAFazer("job " + id + " already is " + para, null);
    }
    throw new IllegalArgumentException(
        "job " + id + " is " + lote.estado() + ": it can be " + para + " only when " + de);
  }

  /**
   * An action of the command line, audited as the page's are ({@link AcoesDasOperacoes}): a
   * caller's mistake is refused and recorded so, a failure recorded and thrown.
   */
  public Desfecho auditado(String operador, String acao, String alvo, Supplier<Desfecho> fazer) {
    Desfecho desfecho;
    try {
      desfecho = fazer.get();
    } catch (IllegalArgumentException e) {
      desfecho = Desfecho.recusado(e.getMessage(), null);
    } catch (RuntimeException e) {
      auditoria.registrar(
          operador,
          acao,
          alvo,
          new Desfecho(
              Desfecho.FALHOU,
              MascaraDeEmail.mascararNoTexto(String.valueOf(e.getMessage())),
              null));
      throw e;
    }
    auditoria.registrar(operador, acao, alvo, desfecho);
    return desfecho;
  }

  /**
   * The job's one audit row with its counts, when it ends (concluded by the runner, or cancelled):
   * the operators' clicks on it are audited besides, one row each, as every action.
   */
  void auditarFim(Lote lote) {
    auditoria.registrar(
        lote.operador(),
        "rederivacao_em_massa",
        "job " + lote.id(),
        Desfecho.feito(
            ("%s; %s; %d orders, %d facts; dry run: %d done, %d would change, %d effect(s) would"
                    + " be born, %d failed; run: %d done, %d changed, %d effect(s) born, %d failed")
                .formatted(
                    lote.estado(),
                    lote.filtro(),
                    lote.pedidosTotal(),
                    lote.fatosTotal(),
                    lote.simulacao().feitos(),
                    lote.simulacao().mudados(),
                    lote.simulacao().efeitos(),
                    lote.simulacao().falhas(),
                    lote.execucao().feitos(),
                    lote.execucao().mudados(),
                    lote.execucao().efeitos(),
                    lote.execucao().falhas()),
            null));
  }

  private static Timestamp paraTimestamp(Instant instante) {
    return instante == null ? null : Timestamp.from(instante);
  }

  private static Instant instante(ResultSet rs, String coluna) throws SQLException {
    Timestamp t = rs.getTimestamp(coluna);
    return t == null ? null : t.toInstant();
  }

  private static Lote lote(ResultSet rs, int n) throws SQLException {
    return new Lote(
        rs.getLong("id"),
        rs.getString("operador"),
        rs.getString("filtro"),
        rs.getString("estado"),
        rs.getInt("pedidos_por_segundo"),
        rs.getInt("pedidos_total"),
        rs.getLong("fatos_total"),
        new Contagem(
            rs.getInt("simulacao_feitos"),
            rs.getInt("simulacao_mudados"),
            rs.getInt("simulacao_efeitos"),
            rs.getInt("simulacao_falhas")),
        new Contagem(
            rs.getInt("execucao_feitos"),
            rs.getInt("execucao_mudados"),
            rs.getInt("execucao_efeitos"),
            rs.getInt("execucao_falhas")),
        rs.getString("executado_por"),
        instante(rs, "criado_em"),
        instante(rs, "atualizado_em"),
        instante(rs, "terminado_em"));
  }
}
