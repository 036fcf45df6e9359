package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A dedicated instance: stopping the shared one would break the other test classes. */
class PostgresLocalReinicioTest {

  private static int portaPedida;
  private static PostgresLocal postgres;

  @BeforeAll
  static void iniciar() {
    portaPedida = Portas.livre();
    postgres = PostgresLocal.builder().porta(portaPedida).iniciar();
  }

  @AfterAll
  static void fechar() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void usaAPortaPedida() throws Exception {
    assertThat(postgres.porta()).isEqualTo(portaPedida);
    assertThat(postgres.jdbcUrl())
        .isEqualTo("jdbc:postgresql://localhost:" + portaPedida + "/pedidos");
    assertThat(Sql.texto(postgres, "SHOW port")).isEqualTo(Integer.toString(portaPedida));
  }

  @Test
  void fsyncLigadoPorPadrao() throws Exception {
    assertThat(Sql.texto(postgres, "SHOW fsync")).isEqualTo("on");
  }

  @Test
  void pararEIniciarMantemPortaEDados() throws Exception {
    Sql.executar(
        postgres,
        "CREATE TABLE reinicio (id int PRIMARY KEY)",
        "INSERT INTO reinicio VALUES (1), (2)");

    postgres.parar();
    assertThat(postgres.rodando()).isFalse();
    assertThatThrownBy(() -> Sql.texto(postgres, "SELECT 1")).isInstanceOf(SQLException.class);

    postgres.iniciar();
    assertThat(postgres.porta()).isEqualTo(portaPedida);
    assertThat(Sql.texto(postgres, "SELECT count(*) FROM reinicio")).isEqualTo("2");
    assertThat(Sql.texto(postgres, "SHOW wal_level")).isEqualTo("logical");
  }

  @Test
  void oDiretorioTemporarioSomeNoClose() {
    PostgresLocal outro = PostgresLocal.builder().iniciar();
    var dados = outro.diretorioDeDados();
    assertThat(dados).isDirectory();
    outro.close();
    assertThat(Files.exists(dados)).isFalse();
    assertThat(PostmasterOrfao.vivo(dados)).isFalse();
  }
}
