package pedidos.aplicador;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.dominio.Aplicacao;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Fato;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;

/**
 * Applies one stored event, in one transaction: the single path that the Kafka listener, the sweep,
 * reconciliation and replay all take.
 *
 * <p>Locks are taken in one order, the order's advisory lock first and its inbox rows after. The
 * seed locked the event row first ({@code FOR UPDATE SKIP LOCKED}), but an apply here also rewrites
 * the results of the order's other facts, so two applies of the same order holding one row each
 * would deadlock. Under the advisory lock no one else touches the order's rows, and an apply of the
 * same event that waited finds it applied and does nothing, which is what SKIP LOCKED gave the
 * seed.
 */
@Component
class AplicadorDeEventos {

  private static final Logger log = LoggerFactory.getLogger(AplicadorDeEventos.class);

  static final String PEDIDO_DO_EVENTO =
      """
      SELECT recurso_id FROM webhook_eventos WHERE evento_id = :eventoId
      """;

  // Serializes the facts of one order even when its row does not exist yet, where a
  // SELECT ... FOR UPDATE would have nothing to lock.
  static final String TRAVAR_PEDIDO =
      """
      SELECT pg_advisory_xact_lock(hashtextextended(:pedidoId, 0))
      """;

  static final String TENTAR_TRAVAR_PEDIDO =
      """
      SELECT pg_try_advisory_xact_lock(hashtextextended(:pedidoId, 0))
      """;

  // A lock held too long (a stuck session) fails this apply instead of stalling its partition;
  // the caller retries it as a transient failure.
  static final String LIMITAR_ESPERA =
      """
      SELECT set_config('lock_timeout', :milissegundos, true)
      """;

  static final String TRAVAR_EVENTO =
      """
      SELECT tipo, payload::text AS payload, aplicado_em IS NOT NULL AS aplicado
        FROM webhook_eventos
       WHERE evento_id = :eventoId
         FOR UPDATE
      """;

  static final String FATOS_APLICADOS =
      """
      SELECT evento_id, tipo, payload::text AS payload, resultado
        FROM webhook_eventos
       WHERE recurso_id = :pedidoId AND aplicado_em IS NOT NULL AND evento_id <> :eventoId
      """;

  static final String ESTADO =
      """
      SELECT status, versao_origem, total_centavos, cliente_email FROM pedidos WHERE id = :pedidoId
      """;

  static final String GRAVAR_ESTADO =
      """
      INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem)
      VALUES (:pedidoId, :status, :total, :email, :versao)
      ON CONFLICT (id) DO UPDATE
         SET status = EXCLUDED.status,
             total_centavos = EXCLUDED.total_centavos,
             cliente_email = EXCLUDED.cliente_email,
             versao_origem = EXCLUDED.versao_origem,
             atualizado_em = now()
       WHERE (pedidos.status, pedidos.total_centavos, pedidos.cliente_email, pedidos.versao_origem)
             IS DISTINCT FROM
             (EXCLUDED.status, EXCLUDED.total_centavos, EXCLUDED.cliente_email, EXCLUDED.versao_origem)
      """;

  static final String GRAVAR_EFEITO =
      """
      INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
      VALUES (:pedidoId, :efeito, :status, :total, :email)
      ON CONFLICT DO NOTHING
      """;

  static final String ASSENTAR_EVENTO =
      """
      UPDATE webhook_eventos
         SET aplicado_em = COALESCE(aplicado_em, now()), resultado = :resultado, motivo = :motivo
       WHERE evento_id = :eventoId
      """;

  static final String CORRIGIR_RESULTADO =
      """
      UPDATE webhook_eventos SET resultado = :resultado WHERE evento_id = :eventoId
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;
  private final LeitorDeEventos leitor = new LeitorDeEventos();
  private final Duration esperaPorLock;

  AplicadorDeEventos(
      JdbcClient jdbc, TransactionTemplate transacao, AplicadorProperties propriedades) {
    this.jdbc = jdbc;
    this.transacao = transacao;
    this.esperaPorLock = propriedades.esperaPorLock();
  }

  /**
   * Applies the stored event in a transaction of its own.
   *
   * @return what was done; empty when the event is not stored, or already applied and the mode does
   *     not re-apply, or its order is busy and the mode does not wait
   */
  Optional<EventoAplicado> aplicar(String eventoId, ModoDeAplicacao modo) {
    return transacao.execute(status -> aplicarNaTransacao(eventoId, modo));
  }

  /**
   * The same, inside the caller's transaction, for callers that store the event first (the
   * listener, replay) so that storing and applying commit together.
   */
  Optional<EventoAplicado> aplicarNaTransacao(String eventoId, ModoDeAplicacao modo) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException("applying an event needs an open transaction");
    }
    Optional<String> pedido =
        jdbc.sql(PEDIDO_DO_EVENTO).param("eventoId", eventoId).query(String.class).optional();
    if (pedido.isEmpty()) {
      return Optional.empty();
    }
    String pedidoId = pedido.get();
    jdbc.sql(LIMITAR_ESPERA)
        .param("milissegundos", String.valueOf(esperaPorLock.toMillis()))
        .query(String.class)
        .single();
    if (modo.esperaPeloPedido()) {
      jdbc.sql(TRAVAR_PEDIDO).param("pedidoId", pedidoId).query((rs, n) -> 1).list();
    } else if (!jdbc.sql(TENTAR_TRAVAR_PEDIDO)
        .param("pedidoId", pedidoId)
        .query(Boolean.class)
        .single()) {
      return Optional.empty();
    }
    EventoTravado evento =
        jdbc.sql(TRAVAR_EVENTO)
            .param("eventoId", eventoId)
            .query(
                (rs, n) ->
                    new EventoTravado(
                        rs.getString("tipo"), rs.getString("payload"), rs.getBoolean("aplicado")))
            .single();
    if (evento.aplicado() && !modo.reaplica()) {
      return Optional.empty();
    }
    Interpretacao interpretacao = leitor.interpretar(eventoId, evento.tipo(), evento.payload());
    if (interpretacao instanceof Interpretacao.SemFato semFato) {
      assentar(eventoId, semFato.resultado(), semFato.motivo());
      log.info(
          "evento_id={} pedido_id={} settled as {}: {}",
          eventoId,
          pedidoId,
          semFato.resultado().codigo(),
          semFato.motivo());
      return Optional.of(new EventoAplicado(eventoId, pedidoId, semFato.resultado(), List.of()));
    }
    return Optional.of(aplicarFato(pedidoId, (Fato) interpretacao));
  }

  private EventoAplicado aplicarFato(String pedidoId, Fato fato) {
    List<FatoGravado> outros =
        jdbc.sql(FATOS_APLICADOS)
            .param("pedidoId", pedidoId)
            .param("eventoId", fato.eventoId())
            .query(
                (rs, n) ->
                    new FatoGravado(
                        leitor.interpretar(
                            rs.getString("evento_id"),
                            rs.getString("tipo"),
                            rs.getString("payload")),
                        rs.getString("evento_id"),
                        rs.getString("resultado")))
            .list();
    List<Fato> jaAplicados = new ArrayList<>();
    for (FatoGravado outro : outros) {
      if (outro.interpretacao() instanceof Fato aplicado) {
        jaAplicados.add(aplicado);
      }
    }
    EstadoDoPedido atual =
        jdbc.sql(ESTADO)
            .param("pedidoId", pedidoId)
            .query(
                (rs, n) ->
                    new EstadoDoPedido(
                        Status.doCodigo(rs.getString("status")),
                        rs.getLong("versao_origem"),
                        rs.getObject("total_centavos", Long.class),
                        rs.getString("cliente_email")))
            .optional()
            .orElse(null);

    Aplicacao aplicacao = Aplicacao.aplicar(atual, jaAplicados, fato);

    EstadoDoPedido novo = aplicacao.estado();
    jdbc.sql(GRAVAR_ESTADO)
        .param("pedidoId", pedidoId)
        .param("status", novo.status().codigo())
        .param("total", novo.totalCentavos())
        .param("email", novo.clienteEmail())
        .param("versao", novo.versaoOrigem())
        .update();
    List<Efeito> gravados = new ArrayList<>();
    for (Efeito efeito : aplicacao.efeitos()) {
      int linhas =
          jdbc.sql(GRAVAR_EFEITO)
              .param("pedidoId", pedidoId)
              .param("efeito", efeito.codigo())
              .param("status", novo.status().codigo())
              .param("total", novo.totalCentavos())
              .param("email", novo.clienteEmail())
              .update();
      if (linhas == 1) {
        gravados.add(efeito);
      }
    }
    assentar(fato.eventoId(), aplicacao.resultado(), null);
    corrigirResultados(outros, aplicacao.veredictos());
    log.debug(
        "evento_id={} pedido_id={} {} -> {} ({}), effects {}",
        fato.eventoId(),
        pedidoId,
        atual == null ? null : atual.status().codigo(),
        novo.status().codigo(),
        aplicacao.resultado().codigo(),
        gravados);
    return new EventoAplicado(fato.eventoId(), pedidoId, aplicacao.resultado(), gravados);
  }

  private void assentar(String eventoId, Resultado resultado, String motivo) {
    jdbc.sql(ASSENTAR_EVENTO)
        .param("eventoId", eventoId)
        .param("resultado", resultado.codigo())
        .param("motivo", motivo)
        .update();
  }

  /** A late fact can change the verdict on facts applied before it: the inbox keeps the truth. */
  private void corrigirResultados(List<FatoGravado> outros, Map<String, Resultado> veredictos) {
    for (FatoGravado outro : outros) {
      Resultado veredicto = veredictos.get(outro.eventoId());
      if (veredicto != null && !veredicto.codigo().equals(outro.resultado())) {
        jdbc.sql(CORRIGIR_RESULTADO)
            .param("eventoId", outro.eventoId())
            .param("resultado", veredicto.codigo())
            .update();
      }
    }
  }

  private record EventoTravado(String tipo, String payload, boolean aplicado) {}

  private record FatoGravado(Interpretacao interpretacao, String eventoId, String resultado) {}
}
