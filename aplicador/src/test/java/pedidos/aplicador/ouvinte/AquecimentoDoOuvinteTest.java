package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import pedidos.aplicador.AplicadorProperties;
import pedidos.aplicador.ContextoDoAplicador;

/**
 * The warm-up before the listener starts applies through the listener's path (so each apply read
 * and wrote the tables) and leaves nothing behind: no order, inbox row or effect of its made-up
 * orders.
 */
class AquecimentoDoOuvinteTest extends ContextoDoAplicador {

  @Autowired AquecimentoDoOuvinte aquecimento;
  @Autowired AplicadorProperties propriedades;

  @Test
  void aplicaPeloCaminhoDoOuvinteEDesfazTudo() {
    assertThat(aquecimento.aplicados())
        .as("created, paid and shipped of each made-up order, on each listener thread")
        .isPositive()
        .isLessThanOrEqualTo(
            propriedades.concorrencia() * propriedades.aquecimento().pedidos() * 3);

    var jdbc = comoAdministrador();
    for (String consulta :
        new String[] {
          "SELECT count(*) FROM pedidos WHERE id LIKE 'aquecimento-%'",
          "SELECT count(*) FROM webhook_eventos WHERE recurso_id LIKE 'aquecimento-%'",
          "SELECT count(*) FROM outbox WHERE pedido_id LIKE 'aquecimento-%'"
        }) {
      assertThat(jdbc.sql(consulta).query(Long.class).single()).as(consulta).isZero();
    }
  }
}
