package pedidos.publicador.mortos;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import pedidos.publicador.envio.EnviadorDeMensagens;
import pedidos.publicador.envio.RegistroDeEnvios;
import pedidos.publicador.linhas.ChaveDoEfeito;
import pedidos.publicador.linhas.FalhasDaLinha;
import pedidos.publicador.linhas.FormatoDasMensagens;
import pedidos.publicador.linhas.Mensagem;
import pedidos.publicador.linhas.Morto;
import pedidos.publicador.linhas.OrigemDaLinha;
import pedidos.publicador.linhas.Tabela;
import pedidos.publicador.linhas.Via;

/**
 * The {@code republicar-mortos} command: every open dead letter's row is read again from its table,
 * encoded and sent as the stream would have sent it. Acknowledged rows are closed ({@code
 * republicado_em}, and outbox rows marked sent); rows that fail again for a reason of their own
 * stay open with the new reason; any other failure (Kafka unreachable) stops the command, leaving
 * what was not acknowledged open for the next run.
 */
@Component
public class RepublicacaoDosMortos {

  // Small batches: a dead letter may well be a row of megabytes.
  private static final int LOTE = 20;

  // Keyed by the dead letter's id, so that one run tries each open letter once, however it ends.
  static final String EVENTOS_MORTOS =
      """
      SELECT m.id, m.chave::text AS chave, e.evento_id, e.recurso_id, e.tipo,
             e.payload::text AS payload, e.recebido_em
        FROM publicador_mortos m
        LEFT JOIN webhook_eventos e ON e.evento_id = m.chave ->> 'evento_id'
       WHERE m.tabela = 'webhook_eventos' AND m.republicado_em IS NULL AND m.id > :depois
         AND (m.republicacao_pedida_em IS NOT NULL OR NOT CAST(:soPedidas AS boolean))
       ORDER BY m.id
       LIMIT :lote
      """;

  static final String EFEITOS_MORTOS =
      """
      SELECT m.id, m.chave::text AS chave, o.pedido_id, o.efeito, o.status, o.total_centavos,
             o.criado_em
        FROM publicador_mortos m
        LEFT JOIN outbox o
          ON o.pedido_id = m.chave ->> 'pedido_id' AND o.efeito = m.chave ->> 'efeito'
       WHERE m.tabela = 'outbox' AND m.republicado_em IS NULL AND m.id > :depois
         AND (m.republicacao_pedida_em IS NOT NULL OR NOT CAST(:soPedidas AS boolean))
       ORDER BY m.id
       LIMIT :lote
      """;

  // A request answered: the letter was tried once. If it still fails it stays open with the new
  // reason and attempt, and the operator may ask again; it is not retried every round forever.
  static final String PEDIDOS_ATENDIDOS =
      """
      UPDATE publicador_mortos SET republicacao_pedida_em = NULL
       WHERE id = ANY(CAST(:ids AS bigint[])) AND republicado_em IS NULL
      """;

  private final JdbcClient jdbc;
  private final FormatoDasMensagens formato;
  private final EnviadorDeMensagens enviador;
  private final RegistroDeEnvios envios;
  private final RegistroDeMortos mortos;

  RepublicacaoDosMortos(
      JdbcClient jdbc,
      FormatoDasMensagens formato,
      EnviadorDeMensagens enviador,
      RegistroDeEnvios envios,
      RegistroDeMortos mortos) {
    this.jdbc = jdbc;
    this.formato = formato;
    this.enviador = enviador;
    this.envios = envios;
    this.mortos = mortos;
  }

  /** What a run did. */
  public record Resumo(int republicadas, int aindaMortas, int semLinha) {}

  public Resumo executar(PrintStream saida) throws InterruptedException {
    return executar(false, saida);
  }

  /**
   * @param comEfeitos false while delivery to the picking system is paused or draining: the
   *     outbox's letters stay open for a run once it is live
   */
  public Resumo executar(PrintStream saida, boolean comEfeitos) throws InterruptedException {
    return executar(false, comEfeitos, saida);
  }

  /**
   * Only the letters an operator asked to re-publish from the applier's status page ({@code
   * republicacao_pedida_em}, V13: the applier has no ACL on the relay's topics, so it asks through
   * the table). Run by the active relay at every fallback round.
   */
  public Resumo executarPedidas(PrintStream saida) throws InterruptedException {
    return executar(true, true, saida);
  }

  /**
   * @param comEfeitos false while delivery to the picking system is paused or draining: the
   *     outbox's letters wait for it, the inbox's go as always
   */
  public Resumo executarPedidas(PrintStream saida, boolean comEfeitos) throws InterruptedException {
    return executar(true, comEfeitos, saida);
  }

  private Resumo executar(boolean soPedidas, PrintStream saida) throws InterruptedException {
    return executar(soPedidas, true, saida);
  }

  private Resumo executar(boolean soPedidas, boolean comEfeitos, PrintStream saida)
      throws InterruptedException {
    Resumo eventos = executar(Tabela.WEBHOOK_EVENTOS, soPedidas, saida);
    Resumo efeitos = comEfeitos ? executar(Tabela.OUTBOX, soPedidas, saida) : new Resumo(0, 0, 0);
    return new Resumo(
        eventos.republicadas() + efeitos.republicadas(),
        eventos.aindaMortas() + efeitos.aindaMortas(),
        eventos.semLinha() + efeitos.semLinha());
  }

  private Resumo executar(Tabela tabela, boolean soPedidas, PrintStream saida)
      throws InterruptedException {
    int republicadas = 0;
    int aindaMortas = 0;
    int semLinha = 0;
    long depois = 0;
    while (true) {
      List<Candidata> lote = ler(tabela, depois, soPedidas);
      if (lote.isEmpty()) {
        return new Resumo(republicadas, aindaMortas, semLinha);
      }
      depois = lote.get(lote.size() - 1).id();
      Map<OrigemDaLinha, Long> ids = new IdentityHashMap<>();
      List<Mensagem> mensagens = new ArrayList<>();
      List<Morto> falhas = new ArrayList<>();
      for (Candidata candidata : lote) {
        if (candidata.mensagem() == null) {
          semLinha++;
          saida.printf(
              "%s %s: the row is no longer in its table; left dead-lettered%n",
              tabela.nome(), candidata.chave());
          continue;
        }
        try {
          Mensagem mensagem = candidata.mensagem().get();
          ids.put(mensagem.origem(), candidata.id());
          mensagens.add(mensagem);
        } catch (RuntimeException e) {
          if (FalhasDaLinha.daLinha(e) == null) {
            throw e;
          }
          falhas.add(Morto.de(new OrigemDaLinha(tabela, candidata.chave(), null), e));
        }
      }
      falhas.addAll(
          enviador.enviarTodas(
              mensagens, Via.REPUBLICACAO, () -> Thread.currentThread().isInterrupted()));
      mortos.registrar(falhas, Via.REPUBLICACAO);
      for (Morto falha : falhas) {
        saida.printf(
            "%s %s: still fails: %s%n", tabela.nome(), falha.origem().chave(), falha.motivo());
      }
      aindaMortas += falhas.size();
      List<ChaveDoEfeito> efeitos = new ArrayList<>();
      for (Mensagem mensagem : mensagens) {
        if (falhas.stream().noneMatch(f -> f.origem() == mensagem.origem())) {
          if (mensagem.efeito() != null) {
            efeitos.add(mensagem.efeito());
          }
          mortos.republicado(ids.get(mensagem.origem()));
          republicadas++;
          saida.printf("%s %s: re-published%n", tabela.nome(), mensagem.origem().chave());
        }
      }
      envios.marcar(efeitos);
      if (soPedidas) {
        jdbc.sql(PEDIDOS_ATENDIDOS)
            .param("ids", lote.stream().map(Candidata::id).toArray(Long[]::new))
            .update();
      }
    }
  }

  /**
   * A dead letter and how to make its message again; {@code mensagem} is null when its row is gone,
   * and the supplier throws when the row still cannot be encoded.
   */
  private record Candidata(long id, String chave, Supplier<Mensagem> mensagem) {}

  private List<Candidata> ler(Tabela tabela, long depois, boolean soPedidas) {
    return switch (tabela) {
      case WEBHOOK_EVENTOS ->
          jdbc.sql(EVENTOS_MORTOS)
              .param("depois", depois)
              .param("lote", LOTE)
              .param("soPedidas", soPedidas)
              .query(
                  (linha, n) -> {
                    String eventoId = linha.getString("evento_id");
                    String recursoId = linha.getString("recurso_id");
                    String tipo = linha.getString("tipo");
                    String payload = linha.getString("payload");
                    var recebidoEm = linha.getTimestamp("recebido_em");
                    return new Candidata(
                        linha.getLong("id"),
                        linha.getString("chave"),
                        eventoId == null
                            ? null
                            : () ->
                                formato.doEvento(
                                    eventoId,
                                    recursoId,
                                    tipo,
                                    payload,
                                    recebidoEm.toInstant(),
                                    null,
                                    null));
                  })
              .list();
      case OUTBOX ->
          jdbc.sql(EFEITOS_MORTOS)
              .param("depois", depois)
              .param("lote", LOTE)
              .param("soPedidas", soPedidas)
              .query(
                  (linha, n) -> {
                    String pedidoId = linha.getString("pedido_id");
                    String efeito = linha.getString("efeito");
                    String status = linha.getString("status");
                    Long total = linha.getObject("total_centavos", Long.class);
                    var criadoEm = linha.getTimestamp("criado_em");
                    return new Candidata(
                        linha.getLong("id"),
                        linha.getString("chave"),
                        pedidoId == null
                            ? null
                            : () ->
                                formato.doEfeito(
                                    new ChaveDoEfeito(pedidoId, efeito),
                                    status,
                                    total,
                                    criadoEm.toInstant(),
                                    null,
                                    null));
                  })
              .list();
    };
  }
}
