package pedidos.simulador;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import pedidos.dominio.Efeito;
import pedidos.dominio.Escrita;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.EventoGravado;
import pedidos.dominio.Fato;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.PoliticaDeAplicacao;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;

/**
 * The system the simulator checks, reduced to its contract and written plainly on the real
 * PostgreSQL and Kafka, for the simulator's own tests: each fact stored once, applied in one
 * transaction with its effects, then each effect published and marked sent. One lock for
 * everything: correctness, not throughput, is what these tests need from it.
 *
 * <p>It keeps no model of its own: it reads the order back from the database and writes what the
 * production policy ({@link PoliticaDeAplicacao}) decides, as the applier does. Its statements are
 * a plain rendering of those writes, one per row; the applier's own are in its {@code
 * LeitorDoPedido} and {@code GravadorDaAplicacao}.
 */
final class SistemaDeReferencia implements AutoCloseable {

  static final String GUARDAR =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
      VALUES (?, ?, ?, ?::jsonb)
      ON CONFLICT (evento_id) DO NOTHING
      """;

  static final String LER_ESTADO =
      """
      SELECT status, versao_origem, total_centavos, cliente_email FROM pedidos WHERE id = ?
      """;

  static final String LER_EVENTOS =
      """
      SELECT evento_id, aplicado_em IS NOT NULL AS aplicado, resultado
        FROM webhook_eventos
       WHERE recurso_id = ?
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

  static final String ASSENTAR =
      """
      UPDATE webhook_eventos
         SET aplicado_em = COALESCE(aplicado_em, now()), resultado = ?, motivo = ?
       WHERE evento_id = ?
      """;

  static final String CORRIGIR =
      """
      UPDATE webhook_eventos SET resultado = ? WHERE evento_id = ?
      """;

  static final String ENVIADO =
      """
      UPDATE outbox SET enviado_em = now() WHERE pedido_id = ? AND efeito = ?
      """;

  private final Connection conexao;
  private final KafkaProducer<String, String> produtor;
  private final String topico;
  private final boolean publicarEmDobro;
  // What each stored event means: the interpretation the receiving side made of its payload (the
  // applier makes it from the stored payload, which these tests need not build).
  private final Map<String, Interpretacao> interpretacoes = new HashMap<>();

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
    interpretacoes.put(fato.eventoId(), fato);
    List<EventoGravado> doPedido = eventos(pedidoId);
    EventoGravado evento =
        doPedido.stream()
            .filter(e -> e.eventoId().equals(fato.eventoId()))
            .findFirst()
            .orElseThrow();
    EstadoDoPedido armazenado = estado(pedidoId);
    Escrita escrita =
        PoliticaDeAplicacao.decidir(armazenado, doPedido, evento, ModoDeAplicacao.NORMAL);
    List<Efeito> novos = new ArrayList<>();
    EstadoDoPedido estado = armazenado;
    if (escrita instanceof Escrita.Assentar assentar) {
      assentar(assentar.eventoId(), assentar.resultado(), assentar.motivo());
    } else if (escrita instanceof Escrita.Gravar gravar) {
      estado = gravar.estado();
      novos = gravar(pedidoId, gravar);
    }
    conexao.commit();
    for (Efeito efeito : novos) {
      publicar(pedidoId, efeito, estado);
    }
    return true;
  }

  private EstadoDoPedido estado(String pedidoId) throws SQLException {
    try (PreparedStatement ler = conexao.prepareStatement(LER_ESTADO)) {
      ler.setString(1, pedidoId);
      try (ResultSet linha = ler.executeQuery()) {
        if (!linha.next()) {
          return null;
        }
        return new EstadoDoPedido(
            Status.doCodigo(linha.getString("status")),
            linha.getLong("versao_origem"),
            linha.getObject("total_centavos", Long.class),
            linha.getString("cliente_email"));
      }
    }
  }

  private List<EventoGravado> eventos(String pedidoId) throws SQLException {
    List<EventoGravado> eventos = new ArrayList<>();
    try (PreparedStatement ler = conexao.prepareStatement(LER_EVENTOS)) {
      ler.setString(1, pedidoId);
      try (ResultSet linhas = ler.executeQuery()) {
        while (linhas.next()) {
          String eventoId = linhas.getString("evento_id");
          Interpretacao interpretacao = interpretacoes.get(eventoId);
          if (interpretacao != null) {
            eventos.add(
                new EventoGravado(
                    eventoId,
                    interpretacao,
                    linhas.getBoolean("aplicado"),
                    linhas.getString("resultado")));
          }
        }
      }
    }
    return eventos;
  }

  /** The policy's writes for a fact; returns the effects the outbox did not hold. */
  private List<Efeito> gravar(String pedidoId, Escrita.Gravar escrita) throws SQLException {
    EstadoDoPedido estado = escrita.estado();
    try (PreparedStatement gravar = conexao.prepareStatement(ESTADO)) {
      gravar.setString(1, pedidoId);
      gravar.setString(2, estado.status().codigo());
      gravar.setObject(3, estado.totalCentavos(), Types.BIGINT);
      gravar.setString(4, estado.clienteEmail());
      gravar.setLong(5, estado.versaoOrigem());
      gravar.executeUpdate();
    }
    List<Efeito> novos = new ArrayList<>();
    for (Efeito efeito : escrita.efeitos()) {
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
    assentar(escrita.eventoId(), escrita.resultado(), null);
    for (Map.Entry<String, Resultado> correcao : escrita.correcoes().entrySet()) {
      try (PreparedStatement corrigir = conexao.prepareStatement(CORRIGIR)) {
        corrigir.setString(1, correcao.getValue().codigo());
        corrigir.setString(2, correcao.getKey());
        corrigir.executeUpdate();
      }
    }
    return novos;
  }

  private void assentar(String eventoId, Resultado resultado, String motivo) throws SQLException {
    try (PreparedStatement assentar = conexao.prepareStatement(ASSENTAR)) {
      assentar.setString(1, resultado.codigo());
      assentar.setString(2, motivo);
      assentar.setString(3, eventoId);
      assentar.executeUpdate();
    }
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
