package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresLocalPersistenteTest {

  @TempDir Path temporario;

  @Test
  void osDadosSobrevivemAoFecharESomemComComecarLimpo() throws Exception {
    Path dados = temporario.resolve("pg");
    try (PostgresLocal primeiro = PostgresLocal.builder().diretorioDeDados(dados).iniciar()) {
      Sql.executar(primeiro, "CREATE TABLE guardada (id int)", "INSERT INTO guardada VALUES (7)");
    }
    assertThat(dados.resolve("PG_VERSION")).exists();

    try (PostgresLocal segundo = PostgresLocal.builder().diretorioDeDados(dados).iniciar()) {
      assertThat(Sql.texto(segundo, "SELECT id FROM guardada")).isEqualTo("7");
    }

    try (PostgresLocal limpo =
        PostgresLocal.builder().diretorioDeDados(dados).comecarLimpo(true).iniciar()) {
      assertThat(Sql.texto(limpo, "SELECT to_regclass('guardada') IS NULL")).isEqualTo("t");
    }
  }

  @Test
  void oMesmoDiretorioNaoPodeTerDoisDonos() {
    Path dados = temporario.resolve("disputado");
    try (PostgresLocal dono = PostgresLocal.builder().diretorioDeDados(dados).iniciar()) {
      assertThatThrownBy(() -> PostgresLocal.builder().diretorioDeDados(dados).iniciar())
          .hasMessageContaining("is in use by another running PostgreSQL");
      assertThat(dono.rodando()).isTrue();
    }
  }

  @Test
  void paraOPostmasterDeixadoPorUmaJvmMorta() throws Exception {
    Path dados = temporario.resolve("orfao");
    int porta = Portas.livre();
    Process filho =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                PostgresQueSobrevive.class.getName(),
                dados.toString(),
                Integer.toString(porta))
            .redirectErrorStream(true)
            .start();
    try {
      esperarPronto(filho);
    } finally {
      filho.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    // The scenario is real only if the server outlived its JVM and still holds the port.
    assertThat(PostmasterOrfao.vivo(dados)).isTrue();
    assertThatThrownBy(() -> Portas.garantirLivre(porta, "X"))
        .isInstanceOf(PortaEmUsoException.class);

    try (PostgresLocal novo =
        PostgresLocal.builder().diretorioDeDados(dados).porta(porta).iniciar()) {
      assertThat(Sql.texto(novo, "SELECT id FROM sobrevive")).isEqualTo("42");
    }
    assertThat(PostmasterOrfao.vivo(dados)).isFalse();
  }

  private static void esperarPronto(Process filho) throws Exception {
    StringBuffer saidaDoFilho = new StringBuffer();
    CompletableFuture<Boolean> pronto =
        CompletableFuture.supplyAsync(
            () -> {
              try (BufferedReader saida =
                  new BufferedReader(
                      new InputStreamReader(filho.getInputStream(), StandardCharsets.UTF_8))) {
                String linha;
                while ((linha = saida.readLine()) != null) {
                  if (linha.contains(PostgresQueSobrevive.PRONTO)) {
                    return true;
                  }
                  saidaDoFilho.append(linha).append('\n');
                }
                return false;
              } catch (Exception e) {
                return false;
              }
            });
    assertThat(pronto.get(60, TimeUnit.SECONDS))
        .as(() -> "child JVM did not start PostgreSQL:\n" + saidaDoFilho)
        .isTrue();
  }
}
