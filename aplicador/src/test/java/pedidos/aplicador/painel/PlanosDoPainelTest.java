package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.testes.InfraDeTeste;

/**
 * Every query of the status page has a way to read webhook_eventos and outbox other than a whole
 * sequential scan: with sequential scans disabled PostgreSQL still picks one only where no index
 * serves the query. (Whether it does pick the index at scale is bench/painel.sh's business: on a
 * test's small tables a Seq Scan is the right plan.)
 */
@Tag("todas-as-versoes-do-postgres")
class PlanosDoPainelTest {

  @Test
  void nenhumaConsultaDoPainelLeATabelaInteira() throws Exception {
    InfraDeTeste.prepararUmaVez(InfraLocal.compartilhada().postgres());
    List<String> planos =
        PlanosDoPainel.explicar(InfraLocal.compartilhada().postgres().dataSource(), false);

    assertThat(planos).hasSize(PlanosDoPainel.CONSULTAS.size());
    assertThat(planos).noneMatch(p -> p.contains(PlanosDoPainel.VARREDURA_INTEIRA));
    assertThat(planos)
        .filteredOn(p -> p.startsWith("PainelDeOperacoes.ANOMALIAS"))
        .singleElement()
        .asString()
        .contains("webhook_eventos_anomalias");
  }

  @Test
  void oVereditoApontaUmaVarreduraInteiraENaoUmaLimitada() {
    assertThat(
            PlanosDoPainel.veredito(
                List.of(
                    "Aggregate  (cost=1.00..2.00 rows=1 width=8)",
                    "  ->  Seq Scan on webhook_eventos  (cost=0.00..1.00 rows=10 width=0)")))
        .contains("Seq Scan on webhook_eventos " + PlanosDoPainel.VARREDURA_INTEIRA);
    assertThat(
            PlanosDoPainel.veredito(
                List.of(
                    "Result  (cost=1.00..2.00 rows=1 width=8)",
                    "  InitPlan 1",
                    "    ->  Aggregate  (cost=1.00..2.00 rows=1 width=8)",
                    "          ->  Limit  (cost=0.00..1.00 rows=10 width=4)",
                    "                ->  Seq Scan on outbox  (cost=0.00..1.00 rows=10 width=0)",
                    "  ->  Seq Scan on webhook_eventos  (cost=0.00..1.00 rows=10 width=0)")))
        .contains("Seq Scan on outbox (under a Limit)")
        .contains("Seq Scan on webhook_eventos " + PlanosDoPainel.VARREDURA_INTEIRA);
  }
}
