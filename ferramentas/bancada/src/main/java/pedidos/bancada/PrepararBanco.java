package pedidos.bancada;

import org.postgresql.ds.PGSimpleDataSource;
import pedidos.infra.PreparoDoBanco;

/**
 * What a deployment's administrator and migration step do, for the benchmark scripts that run
 * PostgreSQL themselves ({@code bench/receptor.sh}, {@code bench/retencao.sh}): the system's roles
 * and the migrations as the owner, with infra-local's code ({@link PreparoDoBanco}), so the roles
 * are written in one place on the Java side.
 *
 * <pre>
 * java -Dloader.main=pedidos.bancada.PrepararBanco -cp ferramentas/bancada/target/bancada-*.jar \
 *   org.springframework.boot.loader.launch.PropertiesLauncher JDBC_URL [SUPERUSER]
 * </pre>
 */
public final class PrepararBanco {

  private PrepararBanco() {}

  public static void main(String[] args) {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: PrepararBanco JDBC_URL [SUPERUSER (postgres)]");
      System.exit(2);
    }
    var superusuario = new PGSimpleDataSource();
    superusuario.setUrl(args[0]);
    superusuario.setUser(args.length > 1 ? args[1] : "postgres");
    PreparoDoBanco.prepararBanco(superusuario, args[0]);
    System.out.println("roles and migrations done on " + args[0]);
  }
}
