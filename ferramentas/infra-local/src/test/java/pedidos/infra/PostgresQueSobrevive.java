package pedidos.infra;

import java.nio.file.Path;

/**
 * Run in a child JVM that the test kills with SIGKILL, leaving its postmaster behind exactly as a
 * developer's killed launcher would.
 */
public final class PostgresQueSobrevive {

  static final String PRONTO = "POSTGRES-PRONTO";

  private PostgresQueSobrevive() {}

  public static void main(String[] argumentos) throws Exception {
    PostgresLocal postgres =
        PostgresLocal.builder()
            .diretorioDeDados(Path.of(argumentos[0]))
            .porta(Integer.parseInt(argumentos[1]))
            .iniciar();
    Sql.executar(postgres, "CREATE TABLE sobrevive (id int)", "INSERT INTO sobrevive VALUES (42)");
    System.out.println(PRONTO);
    System.out.flush();
    // Block until killed; closing stdin from the parent would also end it.
    System.in.read();
  }
}
