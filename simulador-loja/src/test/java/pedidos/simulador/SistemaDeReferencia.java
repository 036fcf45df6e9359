package pedidos.simulador;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import pedidos.dominio.Aplicacao;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Fato;
import pedidos.dominio.Resultado;

/**
 * The system the simulator checks, reduced to its contract and written plainly on the real
 * PostgreSQL and Kafka, for the simulator's own tests: each fact stored once, applied with the
 * domain's rules in one transaction with its effects, then each effect published and marked sent.
 * One lock for everything: correctness, not throughput, is what these tests need from it.
 */
final class SistemaDeReferencia implements AutoCloseable {

  static final String GUARDAR =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
      VALUES (?, ?, ?, ?::jsonb)
      ON CONFLICT (evento_id) DO NOTHING
      """;

  static final String ESTADO =
      """
      INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE
         SET status = EXCLUDED.status, total_centavos = EXCLUDED.total_centavos,
             cliente_email = EXCLUDED.cliente_email, versao_origem = EXCLUDED.versao_origem,
             atualizado_em = now()
      """;

  static final String EFEITO =
      """
      INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING
      """;

  static final String VEREDICTO =
      """
      UPDATE webhook_eventos SET aplicado_em = now(), resultado = ? WHERE evento_id = ?
      """;

  static final String ENVIADO =
      """
      UPDATE outbox SET enviado_em = now() WHERE pedido_id = ? AND efeito = ?
      """;

  private final Connection conexao;
  private final KafkaProducer<String, String> produtor;
  private final String topico;
  private final boolean publicarEmDobro;
  private final Map<String, List<Fato>> fatos = new HashMap<>();
  private final Map<String, EstadoDoPedido> estados = new HashMap<>();

  /**
   * @param publicarEmDobro publish every effect twice, as a relay re-sending after a crash would
   */
  SistemaDeReferencia(BancoDeTeste banco, String topico, boolean publicarEmDobro)
      throws SQLException {
    this.conexao = banco.conectar();
    conexao.setAutoCommit(false);
    this.produtor = KafkaDeTeste.produtor();
    this.topico = topico;
    this.publicarEmDobro = publicarEmDobro;
  }

  /**
   * Stores the fact if new and applies it.
   *
   * @return false for a fact already stored
   */
  synchronized boolean receber(String pedidoId, String tipo, String payload, Fato fato)
      throws SQLException {
    try (PreparedStatement guardar = conexao.prepareStatement(GUARDAR)) {
      guardar.setString(1, fato.eventoId());
      guardar.setString(2, pedidoId);
      guardar.setString(3, tipo);
      guardar.setString(4, payload);
      if (guardar.executeUpdate() == 0) {
        conexao.commit();
        return false;
      }
    }
    List<Fato> anteriores = fatos.computeIfAbsent(pedidoId, id -> new ArrayList<>());
    Aplicacao aplicacao = Aplicacao.aplicar(estados.get(pedidoId), anteriores, fato);
    EstadoDoPedido estado = aplicacao.estado();
    try (PreparedStatement gravar = conexao.prepareStatement(ESTADO)) {
      gravar.setString(1, pedidoId);
      gravar.setString(2, estado.status().codigo());
      gravar.setObject(3, estado.totalCentavos(), Types.BIGINT);
      gravar.setString(4, estado.clienteEmail());
      gravar.setLong(5, estado.versaoOrigem());
      gravar.executeUpdate();
    }
    List<Efeito> novos = new ArrayList<>();
    for (Efeito efeito : aplicacao.efeitos()) {
      try (PreparedStatement inserir = conexao.prepareStatement(EFEITO)) {
        inserir.setString(1, pedidoId);
        inserir.setString(2, efeito.codigo());
        inserir.setString(3, estado.status().codigo());
        inserir.setObject(4, estado.totalCentavos(), Types.BIGINT);
        inserir.setString(5, estado.clienteEmail());
        if (inserir.executeUpdate() == 1) {
          novos.add(efeito);
        }
      }
    }
    for (Map.Entry<String, Resultado> veredicto : aplicacao.veredictos().entrySet()) {
      try (PreparedStatement atualizar = conexao.prepareStatement(VEREDICTO)) {
        atualizar.setString(1, veredicto.getValue().codigo());
        atualizar.setString(2, veredicto.getKey());
        atualizar.executeUpdate();
      }
    }
    conexao.commit();
    anteriores.add(fato);
    estados.put(pedidoId, estado);
    for (Efeito efeito : novos) {
      publicar(pedidoId, efeito, estado);
    }
    return true;
  }

  private void publicar(String pedidoId, Efeito efeito, EstadoDoPedido estado) throws SQLException {
    ProducerRecord<String, String> registro =
        KafkaDeTeste.efeito(topico, pedidoId, efeito.codigo(), estado.status().codigo(), true);
    try {
      produtor.send(registro).get();
      if (publicarEmDobro) {
        produtor.send(registro).get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    try (PreparedStatement marcar = conexao.prepareStatement(ENVIADO)) {
      marcar.setString(1, pedidoId);
      marcar.setString(2, efeito.codigo());
      marcar.executeUpdate();
    }
    conexao.commit();
  }

  @Override
  public synchronized void close() throws SQLException {
    produtor.close();
    conexao.close();
  }
}
