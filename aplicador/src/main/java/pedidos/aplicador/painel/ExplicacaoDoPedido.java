package pedidos.aplicador.painel;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import pedidos.aplicador.aplicacao.LeitorDeEventos;
import pedidos.contrato.MascaraDeEmail;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.EventoGravado;
import pedidos.dominio.ExplicacaoDaDobra;
import pedidos.dominio.Fato;
import pedidos.dominio.FrasesDosVeredictos;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;

/**
 * One order explained on one screen ({@code /pedido.html}): every event of it with where it came
 * from, the canonical fold step by step ({@link ExplicacaoDaDobra}, the domain's own steps), the
 * stored state against the fold, each effect with its birth, its snapshot and its publication, the
 * relay's dead letters and the operators' actions on it. Operators only ({@link
 * SegurancaDasOperacoes}); emails masked.
 *
 * <p>Every query reads one order by an index (the inbox by {@code recurso_id}, V2; the orders and
 * the outbox by their keys; the dead letters by {@code (tabela, chave)} and the audit by {@code
 * pedido_id}, V13), on the panel's own pool with its statement timeout, so an inbox of millions of
 * rows costs a lookup of one order's rows.
 */
@RestController
class ExplicacaoDoPedido {

  /** More events than this for one order is not a real order; the page says it stopped there. */
  static final int EVENTOS_POR_PEDIDO = 1_000;

  /** An event id (the inbox's key), an order id, or a customer's email (V13's expression index). */
  static final String BUSCAR =
      """
      SELECT pedido, como FROM (
        SELECT recurso_id AS pedido, 'evento' AS como, 1 AS ordem
          FROM webhook_eventos WHERE evento_id = :termo
        UNION ALL
        SELECT id, 'pedido', 2 FROM pedidos WHERE id = :termo
        UNION ALL
        (SELECT recurso_id, 'pedido', 3 FROM webhook_eventos WHERE recurso_id = :termo LIMIT 1)
        UNION ALL
        (SELECT id, 'email', 4 FROM pedidos WHERE lower(cliente_email) = lower(:termo)
          ORDER BY id LIMIT 50)
      ) achados
      ORDER BY ordem, pedido
      """;

  static final String EVENTOS =
      """
      SELECT evento_id, tipo, payload::text AS payload, recebido_em, aplicado_em, resultado, motivo,
             kafka_particao, kafka_offset, tentativas, redigido_em
        FROM webhook_eventos
       WHERE recurso_id = :pedido
       ORDER BY recebido_em, evento_id
       LIMIT :limite
      """;

  static final String PEDIDO =
      """
      SELECT status, versao_origem, total_centavos, cliente_email, atualizado_em
        FROM pedidos WHERE id = :pedido
      """;

  static final String EFEITOS =
      """
      SELECT efeito, criado_em, enviado_em, status, total_centavos, cliente_email
        FROM outbox WHERE pedido_id = :pedido
       ORDER BY criado_em
      """;

  /** The relay's dead letters of the order's effects and events, open or closed. */
  static final String MORTOS =
      """
      SELECT id, tabela, chave::text AS chave, motivo, tentativas, registrado_em, republicado_em,
             republicacao_pedida_em
        FROM publicador_mortos
       WHERE (tabela, chave) IN (
               SELECT 'outbox', jsonb_build_object('pedido_id', CAST(:pedido AS text), 'efeito', e)
                 FROM unnest(CAST(:efeitos AS text[])) AS e
               UNION ALL
               SELECT 'webhook_eventos', jsonb_build_object('evento_id', e)
                 FROM unnest(CAST(:eventos AS text[])) AS e)
       ORDER BY id
      """;

  static final String ACOES =
      """
      SELECT operador, acao, alvo, resultado, detalhe, feita_em
        FROM operacoes_auditadas
       WHERE pedido_id = :pedido
       ORDER BY feita_em DESC
       LIMIT 50
      """;

  private final JdbcClient jdbc;
  private final LeitorDeEventos leitor = new LeitorDeEventos();

  ExplicacaoDoPedido(ConsultasDoPainel consultas) {
    this.jdbc = consultas.jdbc();
  }

  /**
   * @param como how the term matched: {@code evento}, {@code pedido} or {@code email}
   */
  record Achado(String pedidoId, String como) {}

  @GetMapping("/status/busca")
  List<Achado> buscar(@RequestParam("q") String termo) {
    String limpo = termo.strip();
    if (limpo.isEmpty() || limpo.length() > 1_000) {
      return List.of();
    }
    Map<String, Achado> achados = new LinkedHashMap<>();
    jdbc.sql(BUSCAR)
        .param("termo", limpo)
        .query((rs, n) -> new Achado(rs.getString("pedido"), rs.getString("como")))
        .list()
        .forEach(achado -> achados.putIfAbsent(achado.pedidoId(), achado));
    return List.copyOf(achados.values());
  }

  /** A state, the email masked. */
  record Estado(String status, long versaoOrigem, Long totalCentavos, String clienteEmail) {
    static Estado de(EstadoDoPedido estado) {
      return estado == null
          ? null
          : new Estado(
              estado.status().codigo(),
              estado.versaoOrigem(),
              estado.totalCentavos(),
              MascaraDeEmail.mascarar(estado.clienteEmail()));
    }
  }

  /**
   * One event of the order as stored.
   *
   * @param origem {@code webhook} (the store's push) or {@code api} (reconciliation's read of the
   *     orders API)
   * @param status the status it announces, or {@code null} when it carries no fact
   * @param versao its version in the fold, or {@code null} when it carries no fact
   * @param kafkaParticao where the listener read it on {@code loja.eventos}; {@code null} when
   *     another path applied it first
   * @param veredicto the stored verdict in words
   */
  record EventoVisto(
      String eventoId,
      String origem,
      String tipo,
      String status,
      Long versao,
      OffsetDateTime recebidoEm,
      OffsetDateTime aplicadoEm,
      Integer kafkaParticao,
      Long kafkaOffset,
      String resultado,
      String veredicto,
      String motivo,
      int tentativas,
      boolean redigido) {}

  /** One step of the fold. */
  record PassoVisto(
      String eventoId,
      String status,
      long versao,
      String antes,
      String depois,
      String resultado,
      List<String> efeitos,
      boolean repetido,
      String porque) {}

  record ForaVisto(String eventoId, String resultado, String porque) {}

  /**
   * An effect as the outbox holds it: born with the transition, its snapshot of the order then, and
   * when the relay published it ({@code null}: not yet).
   */
  record EfeitoVisto(
      String efeito,
      OffsetDateTime criadoEm,
      OffsetDateTime enviadoEm,
      Estado instantaneo,
      String situacao) {}

  record MortoVisto(
      long id,
      String tabela,
      String chave,
      String motivo,
      int tentativas,
      OffsetDateTime registradoEm,
      OffsetDateTime republicadoEm,
      OffsetDateTime republicacaoPedidaEm) {}

  record AcaoVista(
      String operador,
      String acao,
      String alvo,
      String resultado,
      String detalhe,
      OffsetDateTime feitaEm) {}

  /**
   * @param resumo the answers first, in sentences: why the order is in its status, whether the
   *     stored state is the fold's, whether picking was released and the release published
   * @param truncado the order has more than {@link #EVENTOS_POR_PEDIDO} events; only the first are
   *     shown and folded
   */
  record Explicacao(
      String pedidoId,
      List<String> resumo,
      Estado armazenado,
      OffsetDateTime atualizadoEm,
      Estado canonico,
      boolean confere,
      List<EventoVisto> eventos,
      List<PassoVisto> dobra,
      List<ForaVisto> foraDaDobra,
      List<EfeitoVisto> efeitos,
      List<MortoVisto> mortos,
      List<AcaoVista> acoes,
      boolean truncado) {}

  private record Linha(EventoGravado gravado, EventoVisto visto) {}

  private record Armazenado(EstadoDoPedido estado, OffsetDateTime atualizadoEm) {}

  @GetMapping("/status/pedido")
  Explicacao explicar(@RequestParam("id") String pedidoId) {
    List<Linha> linhas =
        jdbc.sql(EVENTOS)
            .param("pedido", pedidoId)
            .param("limite", EVENTOS_POR_PEDIDO + 1)
            .query((rs, n) -> linha(rs))
            .list();
    Armazenado armazenado =
        jdbc.sql(PEDIDO)
            .param("pedido", pedidoId)
            .query(
                (rs, n) ->
                    new Armazenado(
                        new EstadoDoPedido(
                            Status.doCodigo(rs.getString("status")),
                            rs.getLong("versao_origem"),
                            rs.getObject("total_centavos", Long.class),
                            rs.getString("cliente_email")),
                        rs.getObject("atualizado_em", OffsetDateTime.class)))
            .optional()
            .orElse(null);
    if (linhas.isEmpty() && armazenado == null) {
      throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no order " + pedidoId);
    }
    boolean truncado = linhas.size() > EVENTOS_POR_PEDIDO;
    if (truncado) {
      linhas = linhas.subList(0, EVENTOS_POR_PEDIDO);
    }
    ExplicacaoDaDobra dobra =
        ExplicacaoDaDobra.explicar(linhas.stream().map(Linha::gravado).toList());
    EstadoDoPedido estado = armazenado == null ? null : armazenado.estado();
    List<EfeitoVisto> efeitos =
        jdbc.sql(EFEITOS)
            .param("pedido", pedidoId)
            .query(
                (rs, n) -> {
                  OffsetDateTime enviado = rs.getObject("enviado_em", OffsetDateTime.class);
                  String status = rs.getString("status");
                  return new EfeitoVisto(
                      rs.getString("efeito"),
                      rs.getObject("criado_em", OffsetDateTime.class),
                      enviado,
                      status == null
                          ? null
                          : new Estado(
                              status,
                              0,
                              rs.getObject("total_centavos", Long.class),
                              MascaraDeEmail.mascarar(rs.getString("cliente_email"))),
                      enviado == null
                          ? "not published yet: the relay sends it (or its fallback resends it)"
                          : "published to the picking system");
                })
            .list();
    List<MortoVisto> mortos =
        jdbc.sql(MORTOS)
            .param("pedido", pedidoId)
            .param("efeitos", codigosDosEfeitos())
            .param(
                "eventos",
                linhas.stream().map(linha -> linha.gravado().eventoId()).toArray(String[]::new))
            .query(
                (rs, n) ->
                    new MortoVisto(
                        rs.getLong("id"),
                        rs.getString("tabela"),
                        rs.getString("chave"),
                        MascaraDeEmail.mascararNoTexto(rs.getString("motivo")),
                        rs.getInt("tentativas"),
                        rs.getObject("registrado_em", OffsetDateTime.class),
                        rs.getObject("republicado_em", OffsetDateTime.class),
                        rs.getObject("republicacao_pedida_em", OffsetDateTime.class)))
            .list();
    List<AcaoVista> acoes =
        jdbc.sql(ACOES)
            .param("pedido", pedidoId)
            .query(
                (rs, n) ->
                    new AcaoVista(
                        rs.getString("operador"),
                        rs.getString("acao"),
                        rs.getString("alvo"),
                        rs.getString("resultado"),
                        MascaraDeEmail.mascararNoTexto(rs.getString("detalhe")),
                        rs.getObject("feita_em", OffsetDateTime.class)))
            .list();
    return new Explicacao(
        pedidoId,
        ResumoDoPedido.resumir(dobra, estado, linhas.stream().map(Linha::visto).toList(), efeitos),
        Estado.de(estado),
        armazenado == null ? null : armazenado.atualizadoEm(),
        Estado.de(dobra.estado()),
        dobra.confereCom(estado),
        linhas.stream().map(Linha::visto).toList(),
        dobra.passos().stream().map(ExplicacaoDoPedido::passo).toList(),
        dobra.foraDaDobra().stream()
            .map(
                fora ->
                    new ForaVisto(
                        fora.eventoId(),
                        fora.resultado(),
                        MascaraDeEmail.mascararNoTexto(fora.porque())))
            .toList(),
        efeitos,
        mortos,
        acoes,
        truncado);
  }

  private Linha linha(java.sql.ResultSet rs) throws java.sql.SQLException {
    String eventoId = rs.getString("evento_id");
    String tipo = rs.getString("tipo");
    String resultado = rs.getString("resultado");
    OffsetDateTime aplicadoEm = rs.getObject("aplicado_em", OffsetDateTime.class);
    Interpretacao interpretacao = leitor.interpretar(eventoId, tipo, rs.getString("payload"));
    Fato fato = interpretacao instanceof Fato f ? f : null;
    var gravado = new EventoGravado(eventoId, interpretacao, aplicadoEm != null, resultado);
    var visto =
        new EventoVisto(
            eventoId,
            LeitorDeEventos.TIPO_DA_API.equals(tipo) ? "api" : "webhook",
            tipo,
            fato == null ? null : fato.status().codigo(),
            fato == null ? null : fato.versao(),
            rs.getObject("recebido_em", OffsetDateTime.class),
            aplicadoEm,
            rs.getObject("kafka_particao", Integer.class),
            rs.getObject("kafka_offset", Long.class),
            resultado,
            FrasesDosVeredictos.doCodigo(resultado),
            MascaraDeEmail.mascararNoTexto(rs.getString("motivo")),
            rs.getInt("tentativas"),
            rs.getObject("redigido_em", OffsetDateTime.class) != null);
    return new Linha(gravado, visto);
  }

  private static PassoVisto passo(ExplicacaoDaDobra.PassoExplicado passo) {
    return new PassoVisto(
        passo.fato().eventoId(),
        passo.fato().status().codigo(),
        passo.fato().versao(),
        passo.antes() == null ? null : passo.antes().status().codigo(),
        passo.depois().status().codigo(),
        passo.resultado() == null ? null : passo.resultado().codigo(),
        passo.efeitos().stream().map(Efeito::codigo).toList(),
        passo.repetido(),
        passo.porque());
  }

  private static String[] codigosDosEfeitos() {
    List<String> codigos = new ArrayList<>();
    for (Efeito efeito : Efeito.values()) {
      codigos.add(efeito.codigo());
    }
    return codigos.toArray(String[]::new);
  }

  static boolean anomalia(String resultado) {
    return Resultado.REGRESSAO_DE_TERMINAL.codigo().equals(resultado)
        || Resultado.FATO_INVALIDO.codigo().equals(resultado)
        || Resultado.FALHA_DE_APLICACAO.codigo().equals(resultado);
  }
}
