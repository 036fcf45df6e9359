package pedidos.publicador.envio;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import pedidos.publicador.linhas.ChaveDoEfeito;
import tools.jackson.databind.json.JsonMapper;

/** Records in the outbox that Kafka acknowledged its rows. */
@Component
public class RegistroDeEnvios {

  // One statement per batch, keys passed as one JSON array. The first time of sending is kept.
  // SKIP LOCKED: the stream and the fallback may mark the same rows at once; whichever locks a row
  // marks it, the other moves on, and neither waits for nor deadlocks with the other.
  static final String MARCAR_ENVIADOS =
      """
      WITH alvo AS (
        SELECT o.pedido_id, o.efeito
          FROM outbox o
          JOIN jsonb_to_recordset(CAST(:chaves AS jsonb)) AS e(pedido_id text, efeito text)
            ON o.pedido_id = e.pedido_id AND o.efeito = e.efeito
         WHERE o.enviado_em IS NULL
           FOR UPDATE OF o SKIP LOCKED
      )
      UPDATE outbox o
         SET enviado_em = now()
        FROM alvo
       WHERE o.pedido_id = alvo.pedido_id AND o.efeito = alvo.efeito
      """;

  private final JdbcClient jdbc;
  private final JsonMapper json = JsonMapper.builder().build();

  RegistroDeEnvios(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  public void marcar(Collection<ChaveDoEfeito> chaves) {
    if (chaves.isEmpty()) {
      return;
    }
    List<Map<String, String>> linhas =
        chaves.stream().map(c -> Map.of("pedido_id", c.pedidoId(), "efeito", c.efeito())).toList();
    jdbc.sql(MARCAR_ENVIADOS).param("chaves", json.writeValueAsString(linhas)).update();
  }
}
