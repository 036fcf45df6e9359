package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class PostgresLocalTest {

  private final PostgresLocal postgres = InfraLocal.compartilhada().postgres();

  @Test
  void configuradoParaDecodificacaoLogicaEDuravel() throws Exception {
    assertThat(Sql.texto(postgres, "SHOW wal_level")).isEqualTo("logical");
    assertThat(Sql.texto(postgres, "SHOW synchronous_commit")).isEqualTo("on");
    assertThat(Sql.texto(postgres, "SHOW max_replication_slots")).isEqualTo("20");
    assertThat(Sql.texto(postgres, "SHOW max_wal_senders")).isEqualTo("20");
    assertThat(Sql.texto(postgres, "SHOW max_slot_wal_keep_size")).isEqualTo("1GB");
    assertThat(Sql.texto(postgres, "SHOW max_connections")).isEqualTo("300");
    assertThat(Sql.texto(postgres, "SHOW server_version")).startsWith("17.");
  }

  @Test
  void aCompartilhadaTrocaFsyncPorVelocidade() throws Exception {
    assertThat(Sql.texto(postgres, "SHOW fsync")).isEqualTo("off");
  }

  @Test
  void conectaNoBancoDoProjeto() throws Exception {
    assertThat(Sql.texto(postgres, "SELECT current_database()")).isEqualTo("pedidos");
    try (Connection conexao = postgres.dataSource().getConnection();
        Statement comando = conexao.createStatement();
        ResultSet resultado = comando.executeQuery("SELECT current_database()")) {
      resultado.next();
      assertThat(resultado.getString(1)).isEqualTo("pedidos");
    }
  }

  @Test
  void criaSlotLogicoComPgoutput() throws Exception {
    try (Connection conexao = Sql.conectar(postgres);
        Statement comando = conexao.createStatement()) {
      try (ResultSet criado =
          comando.executeQuery(
              "SELECT slot_name FROM pg_create_logical_replication_slot('t', 'pgoutput')")) {
        criado.next();
        assertThat(criado.getString(1)).isEqualTo("t");
      }
      try (ResultSet slot =
          comando.executeQuery(
              "SELECT plugin, slot_type FROM pg_replication_slots WHERE slot_name = 't'")) {
        slot.next();
        assertThat(slot.getString("plugin")).isEqualTo("pgoutput");
        assertThat(slot.getString("slot_type")).isEqualTo("logical");
      }
      comando.execute("SELECT pg_drop_replication_slot('t')");
      try (ResultSet restantes =
          comando.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 't'")) {
        restantes.next();
        assertThat(restantes.getInt(1)).isZero();
      }
    }
  }
}
