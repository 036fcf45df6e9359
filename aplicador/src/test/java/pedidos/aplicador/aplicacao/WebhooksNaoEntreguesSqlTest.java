package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;
import pedidos.testes.Consultas;
import pedidos.testes.InfraDeTeste;

/**
 * The lost-webhook statements that run inside an apply read the inbox (millions of rows) only
 * through an index: the order's events by {@code recurso_id}, the late webhook by its key. With
 * sequential scans priced out, a statement no index serves would show a Seq Scan here.
 */
@Tag("todas-as-versoes-do-postgres")
class WebhooksNaoEntreguesSqlTest {

  private static DataSource banco;

  @BeforeAll
  static void infra() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    InfraDeTeste.prepararUmaVez(postgres);
    banco = postgres.dataSource();
  }

  @Test
  void asConsultasDoApplyLeemACaixaDeEntradaPorIndice() throws Exception {
    assertThat(plano(WebhooksNaoEntregues.EVENTOS_DO_PEDIDO))
        .doesNotContain("Seq Scan")
        .contains("webhook_eventos_por_pedido");
    assertThat(plano(WebhooksNaoEntregues.MARCAR_ATRASADO))
        .doesNotContain("Seq Scan")
        .contains("webhook_eventos_pkey")
        .contains("webhooks_nao_entregues_pkey");
    assertThat(plano("SELECT * FROM webhook_eventos WHERE tipo = 'order.paid'"))
        .as("the check can fail")
        .contains("Seq Scan");
  }

  private static String plano(String sql) throws Exception {
    String literal = sql;
    for (List<String> valor :
        List.of(
            List.of(":eventoId", "'api:ord-1:s2:paid'"),
            List.of(":pedido", "'ord-1'"),
            List.of(":webhook", "'evt-1'"),
            List.of(":apis", "'{api:ord-1:s2:paid}'"))) {
      literal = literal.replace(valor.get(0), valor.get(1));
    }
    return Consultas.de(banco).planoSemVarreduraSequencial(literal);
  }
}
