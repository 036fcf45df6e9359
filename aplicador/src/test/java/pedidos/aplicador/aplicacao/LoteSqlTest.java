package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;
import pedidos.testes.Consultas;
import pedidos.testes.InfraDeTeste;

/**
 * The sub-batch's statements ({@link LeitorDoLote}, {@link GravadorDoLote}) reach the inbox
 * (millions of rows), the orders and the outbox only through their indexes: the records' events by
 * key, their orders' facts by {@code recurso_id}. With sequential scans priced out, a statement no
 * index serves would show a Seq Scan here.
 */
class LoteSqlTest {

  private static DataSource banco;

  @BeforeAll
  static void infra() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    InfraDeTeste.prepararUmaVez(postgres);
    banco = postgres.dataSource();
  }

  @Test
  void asLeiturasEAEscritaDoLoteUsamIndices() {
    assertThat(plano(LeitorDoLote.TRAVAR_PEDIDOS_DOS_EVENTOS))
        .doesNotContain("Seq Scan")
        .contains("webhook_eventos_pkey");
    assertThat(plano(LeitorDoLote.LER_PEDIDOS))
        .doesNotContain("Seq Scan")
        .contains("webhook_eventos_pkey")
        .contains("webhook_eventos_por_pedido")
        .contains("pedidos_pkey");
    assertThat(plano(GravadorDoLote.GRAVAR_LOTE))
        .doesNotContain("Seq Scan")
        .contains("webhook_eventos_pkey");
  }

  private static String plano(String sql) {
    String literal = sql;
    for (List<String> valor :
        List.of(
            List.of(":milissegundos", "'500'"),
            List.of(":falhaDeAplicacao", "'falha_de_aplicacao'"),
            List.of(":eventoIds", "'{evt-1,evt-2,evt-3}'"),
            List.of(":resultados", "'{aplicado,aplicado,evento_antigo}'"),
            List.of(":assentados", "'{t,t,f}'"),
            List.of(":motivos", "'{NULL,NULL,NULL}'"),
            List.of(":particoes", "'{0,0,NULL}'"),
            List.of(":offsets", "'{1,2,NULL}'"),
            List.of(":pedidoIds", "'{ord-1}'"),
            List.of(":status", "'{pago}'"),
            List.of(":totais", "'{1990}'"),
            List.of(":emails", "'{a@loja}'"),
            List.of(":versoes", "'{2}'"),
            List.of(":efeitoPedidos", "'{ord-1}'"),
            List.of(":efeitoStatus", "'{pago}'"),
            List.of(":efeitoTotais", "'{1990}'"),
            List.of(":efeitoEmails", "'{a@loja}'"),
            List.of(":efeitos", "'{liberar_separacao}'"))) {
      literal = literal.replace(valor.get(0), valor.get(1));
    }
    return Consultas.de(banco).planoSemVarreduraSequencial(literal);
  }
}
