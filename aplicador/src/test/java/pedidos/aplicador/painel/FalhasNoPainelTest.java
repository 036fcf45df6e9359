package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.aplicacao.FalhasDeAplicacao;
import pedidos.aplicador.configuracao.AplicadorProperties;

/**
 * Ops see failing applies on the panel: rows waiting again after a failure, and rows settled as
 * {@code falha_de_aplicacao}, recorded as the sweep records them ({@link FalhasDeAplicacao}). How
 * the failures come about, and what then happens to them, is FalhasDeAplicacaoTest's.
 */
class FalhasNoPainelTest extends ContextoDoAplicador {

  @Autowired JdbcClient jdbc;
  @Autowired FalhasDeAplicacao falhas;
  @Autowired PainelDeOperacoes painel;
  @Autowired FluxoPorMinuto fluxo;
  @Autowired AplicadorProperties propriedades;

  private final String p = "painel-" + UUID.randomUUID().toString().substring(0, 8) + "-";

  @Test
  void oPainelMostraAsLinhasQueFalhamEAsAssentadasComoFalha() {
    inserir(p + "adiado");
    assertThat(falhas.registrar(p + "adiado", new QueryTimeoutException("restarting"))).isFalse();
    inserir(p + "preso");
    boolean assentado = false;
    for (int i = 0; i < propriedades.tentativasDeFalhaDesconhecida(); i++) {
      assentado = falhas.registrar(p + "preso", new IllegalStateException("a bug"));
    }
    assertThat(assentado).isTrue();

    // A round of the per-minute flow every 10 s in production, and a cache of a few seconds in
    // front of the panel's queries.
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              fluxo.rodada();
              var lido = painel.painel();
              assertThat(lido.pendentesComFalha()).as("waiting after a failure").isPositive();
              assertThat(lido.resultados().get("falha_de_aplicacao")).isPositive();
            });
  }

  private void inserir(String eventoId) {
    jdbc.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
            VALUES (?, ?, 'order.paid', CAST(? AS jsonb), now() - interval '1 hour')
            """)
        .params(eventoId, eventoId + "-pedido", "{\"id\": \"" + eventoId + "\"}")
        .update();
  }
}
