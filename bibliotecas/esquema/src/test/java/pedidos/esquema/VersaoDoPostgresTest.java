package pedidos.esquema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;

@Tag("todas-as-versoes-do-postgres")
class VersaoDoPostgresTest {

  private final PostgresLocal postgres = InfraLocal.compartilhada().postgres();

  @Test
  void oServidorDestaExecucaoEhAVersaoPedidaEEhAceito() throws Exception {
    int numero;
    try (Connection conexao = postgres.dataSource().getConnection();
        Statement consulta = conexao.createStatement();
        ResultSet linha = consulta.executeQuery(VersaoDoPostgres.CONSULTAR)) {
      linha.next();
      numero = linha.getInt(1);
    }
    // Each of Maven's test executions asks for its version; this proves it got that server.
    assertThat(String.valueOf(numero / 10_000)).isEqualTo(postgres.versao());
    assertThatCode(() -> VersaoDoPostgres.exigirSuportada(postgres.dataSource()))
        .doesNotThrowAnyException();
  }

  @Test
  void cadaVersaoSuportadaTemOsSeusBinariosNosTestes() {
    List<String> suportadas =
        IntStream.rangeClosed(VersaoDoPostgres.MINIMA, VersaoDoPostgres.MAXIMA)
            .mapToObj(String::valueOf)
            .toList();
    assertThat(PostgresLocal.versoesDisponiveis()).containsExactlyElementsOf(suportadas);
  }

  @Test
  void recusaAsVersoesForaDaFaixaNomeandoAVersaoEAFaixa() {
    assertThat(VersaoDoPostgres.recusa(140_018, "14.18"))
        .hasValueSatisfying(
            mensagem ->
                assertThat(mensagem)
                    .contains("PostgreSQL 14.18 is not supported")
                    .contains("PostgreSQL 15 to 18"));
    assertThat(VersaoDoPostgres.recusa(190_000, "19.0"))
        .hasValueSatisfying(mensagem -> assertThat(mensagem).contains("19.0", "15 to 18"));
    for (int numero : new int[] {150_000, 150_013, 160_009, 170_005, 180_000, 189_999}) {
      assertThat(VersaoDoPostgres.recusa(numero, "x")).as("%d", numero).isEmpty();
    }
  }
}
