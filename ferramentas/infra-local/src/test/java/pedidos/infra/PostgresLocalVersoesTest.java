package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every packaged PostgreSQL major version starts, with what logical replication needs. */
class PostgresLocalVersoesTest {

  @TempDir Path temporario;

  @Test
  void cadaVersaoEmpacotadaSobeComReplicacaoLogica() throws Exception {
    assertThat(PostgresLocal.versoesDisponiveis()).contains(PostgresLocal.VERSAO_PADRAO);
    for (String versao : PostgresLocal.versoesDisponiveis()) {
      try (PostgresLocal postgres = PostgresLocal.builder().versao(versao).fsync(false).iniciar()) {
        assertThat(postgres.versao()).isEqualTo(versao);
        assertThat(Sql.texto(postgres, "SELECT current_setting('server_version_num')"))
            .as("server of version %s", versao)
            .startsWith(versao);
        assertThat(Sql.texto(postgres, "SHOW wal_level")).isEqualTo("logical");
      }
    }
  }

  @Test
  void aVersaoVemDaPropriedadeDepoisDoAmbienteDepoisDoPadrao() {
    Map<String, String> propriedades = Map.of(PostgresLocal.PROPRIEDADE_DA_VERSAO, "15");
    Map<String, String> ambiente = Map.of(PostgresLocal.VARIAVEL_DA_VERSAO, "16");
    assertThat(PostgresLocal.versaoPedida(propriedades::get, ambiente::get)).isEqualTo("15");
    assertThat(PostgresLocal.versaoPedida(nome -> null, ambiente::get)).isEqualTo("16");
    assertThat(PostgresLocal.versaoPedida(nome -> null, nome -> null))
        .isEqualTo(PostgresLocal.VERSAO_PADRAO);
    assertThatThrownBy(() -> PostgresLocal.versaoPedida(nome -> "14", nome -> null))
        .hasMessageContaining("PostgreSQL '14' is not available here")
        .hasMessageContaining("15, 16, 17, 18");
  }

  @Test
  void dadosDeOutraVersaoSaoRecusadosComOQueFazer() {
    Path dados = temporario.resolve("pg");
    try (PostgresLocal antigo =
        PostgresLocal.builder().versao("16").fsync(false).diretorioDeDados(dados).iniciar()) {
      assertThat(antigo.rodando()).isTrue();
    }
    assertThatThrownBy(
            () -> PostgresLocal.builder().versao("17").diretorioDeDados(dados).iniciar().close())
        .hasMessageContaining("holds PostgreSQL 16 data, but PostgreSQL 17 was asked for");
  }
}
