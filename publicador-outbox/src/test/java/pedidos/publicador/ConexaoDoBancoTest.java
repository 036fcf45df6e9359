package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** One set of standard variables configures the relay's every connection. */
class ConexaoDoBancoTest {

  private static final PublicadorProperties.Banco NADA =
      new PublicadorProperties.Banco(null, null, null);

  @Test
  void derivaDoDatasource() {
    ConexaoDoBanco conexao =
        ConexaoDoBanco.de(
            NADA, "jdbc:postgresql://db.interno:6543/pedidos?sslmode=require", "app", "s3");

    assertThat(conexao)
        .isEqualTo(
            new ConexaoDoBanco(
                "jdbc:postgresql://db.interno:6543/pedidos?sslmode=require",
                "db.interno",
                6543,
                "pedidos",
                "app",
                "s3"));
    assertThat(conexao.toString()).doesNotContain("s3");
  }

  @Test
  void portaPadrao() {
    ConexaoDoBanco conexao = ConexaoDoBanco.de(NADA, "jdbc:postgresql://db/pedidos", "app", null);

    assertThat(conexao.porta()).isEqualTo(5432);
    assertThat(conexao.senha()).isNull();
  }

  @Test
  void oProprioVenceODatasourceCampoACampo() {
    ConexaoDoBanco conexao =
        ConexaoDoBanco.de(
            new PublicadorProperties.Banco("jdbc:postgresql://primario:5432/pedidos", "cdc", null),
            "jdbc:postgresql://pgbouncer:6432/pedidos",
            "app",
            "s3");

    assertThat(conexao.host()).isEqualTo("primario");
    assertThat(conexao.usuario()).isEqualTo("cdc");
    assertThat(conexao.senha()).as("not overridden").isEqualTo("s3");
  }

  @Test
  void recusaVariosHostsEUrlsQueNaoSaoDoPostgres() {
    assertThatThrownBy(
            () -> ConexaoDoBanco.de(NADA, "jdbc:postgresql://a:5432,b:5432/pedidos", "u", "s"))
        .hasMessageContaining("single host");
    assertThatThrownBy(() -> ConexaoDoBanco.de(NADA, "jdbc:mysql://a/pedidos", "u", "s"))
        .hasMessageContaining("not a PostgreSQL");
    assertThatThrownBy(() -> ConexaoDoBanco.de(NADA, null, "u", "s"))
        .hasMessageContaining("spring.datasource.url");
  }
}
