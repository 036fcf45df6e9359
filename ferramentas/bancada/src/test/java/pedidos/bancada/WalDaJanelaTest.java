package pedidos.bancada;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import pedidos.infra.PostgresLocal;

/** The WAL section's queries on a real server: a known window of inserts, counted back. */
class WalDaJanelaTest {

  private static PostgresLocal postgres;

  @BeforeAll
  static void iniciar() {
    postgres = PostgresLocal.builder().fsync(false).iniciar();
  }

  @AfterAll
  static void parar() {
    postgres.close();
  }

  @Test
  void cadaInsercaoDaJanelaContaNaSuaTabelaNoSeuIndiceENoSeuCommit() throws Exception {
    try (Connection conexao = postgres.dataSource().getConnection();
        Statement s = conexao.createStatement()) {
      s.execute("CREATE TABLE janela (id int PRIMARY KEY, valor text)");
      // Before the window: the first row also initializes the heap's page and the index's root.
      s.execute("INSERT INTO janela VALUES (-1, 'v')");
      String inicio = WalDaJanela.posicao(conexao);
      for (int i = 0; i < 100; i++) {
        s.execute("INSERT INTO janela VALUES (" + i + ", 'v')");
      }
      String fim = WalDaJanela.posicao(conexao);

      String texto = WalDaJanela.texto(conexao, inicio, fim, 100);

      assertThat(texto).contains("for 100 events, **");
      assertThat(texto.lines())
          .as("one heap insert, one index insert and one commit per event")
          .anyMatch(l -> l.startsWith("| Heap/INSERT | 1.00 |"))
          .anyMatch(l -> l.startsWith("| janela | 1.00 |"))
          .anyMatch(l -> l.startsWith("| janela_pkey | 1.00 |"))
          .anyMatch(l -> l.startsWith("| no relation (Transaction) | 1.00 |"));
    }
  }
}
