package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every PostgreSQL of the system ends a vanished client's backend the same way: the embedded one
 * runs with the settings, and docker-compose.yml passes the same ones to its server.
 */
class ClientesSilenciososTest {

  @Test
  void oPostgresEmbutidoRodaComAsConfiguracoes() throws Exception {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    try (Connection conexao =
            DriverManager.getConnection(postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
        Statement comando = conexao.createStatement()) {
      for (Map.Entry<String, String> parametro : ClientesSilenciosos.PARAMETROS.entrySet()) {
        try (ResultSet r =
            comando.executeQuery(
                "SELECT setting FROM pg_settings WHERE name = '" + parametro.getKey() + "'")) {
          assertThat(r.next()).as(parametro.getKey()).isTrue();
          assertThat(r.getString("setting")).as(parametro.getKey()).isEqualTo(parametro.getValue());
        }
      }
    }
  }

  @Test
  void oComposePassaAsMesmas() throws Exception {
    String compose = Files.readString(JarDoServico.raiz().resolve("docker-compose.yml"));
    ClientesSilenciosos.PARAMETROS.forEach(
        (nome, valor) -> assertThat(compose).contains("- " + nome + "=" + valor + "\n"));
  }
}
