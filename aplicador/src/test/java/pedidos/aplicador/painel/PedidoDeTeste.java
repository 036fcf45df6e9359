package pedidos.aplicador.painel;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.Status;

/**
 * Builds an order's history in the real inbox, as the receptor stores webhook events, then applies
 * the events in the order they "arrived": {@code PedidoDeTeste.novo("ord").com(PAGO, 10).com(...)
 * .aplicar(aplicador)}.
 */
final class PedidoDeTeste {

  private final String pedidoId;
  private final List<String[]> eventos = new ArrayList<>();
  private String email;

  private PedidoDeTeste(String pedidoId) {
    this.pedidoId = pedidoId;
  }

  /** A new order with a unique id starting with {@code prefixo}. */
  static PedidoDeTeste novo(String prefixo) {
    return new PedidoDeTeste(prefixo + "-" + UUID.randomUUID().toString().substring(0, 8));
  }

  /** The customer's email the next events carry. */
  PedidoDeTeste email(String email) {
    this.email = email;
    return this;
  }

  /** A webhook event announcing {@code status} at {@code sequencia}; its id is order-status. */
  PedidoDeTeste com(Status status, long sequencia) {
    String eventoId = pedidoId + "-" + status.codigo();
    String dados =
        email == null
            ? "{\"id\": \"%s\"}".formatted(pedidoId)
            : "{\"id\": \"%s\", \"customer_email\": \"%s\", \"total_cents\": 1990}"
                .formatted(pedidoId, email);
    eventos.add(
        new String[] {
          eventoId,
          status.tipoDoEvento(),
          "{\"id\": \"%s\", \"type\": \"%s\", \"sequence\": %d, \"data\": %s}"
              .formatted(eventoId, status.tipoDoEvento(), sequencia, dados)
        });
    return this;
  }

  String id() {
    return pedidoId;
  }

  String evento(Status status) {
    return pedidoId + "-" + status.codigo();
  }

  /** Stores every event, then applies them in the order they were added. */
  PedidoDeTeste aplicar(JdbcClient jdbc, AplicadorDeEventos aplicador) {
    guardar(jdbc);
    for (String[] evento : eventos) {
      aplicador.aplicar(evento[0], ModoDeAplicacao.NORMAL);
    }
    return this;
  }

  /** Stores every event, pending, as the receptor would. */
  PedidoDeTeste guardar(JdbcClient jdbc) {
    for (String[] evento : eventos) {
      jdbc.sql(
              """
              INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
              VALUES (?, ?, ?, ?::jsonb)
              """)
          .params(evento[0], pedidoId, evento[1], evento[2])
          .update();
    }
    return this;
  }
}
