package pedidos.publicador;

import java.util.Properties;
import org.postgresql.Driver;

/**
 * The database the relay captures, as Debezium, the lease and the offset store reach it.
 *
 * <p>Derived from {@code spring.datasource.*} field by field unless {@code publicador.banco.*} says
 * otherwise, so the one set of standard variables configures every service.
 */
record ConexaoDoBanco(
    String jdbcUrl, String host, int porta, String banco, String usuario, String senha) {

  static ConexaoDoBanco de(
      PublicadorProperties.Banco proprio, String url, String usuario, String senha) {
    String urlEfetiva = preenchido(proprio.url()) ? proprio.url() : url;
    if (!preenchido(urlEfetiva)) {
      throw new IllegalArgumentException(
          "no database URL: set spring.datasource.url (or publicador.banco.url)");
    }
    // The driver's own parser: the same defaults (port 5432, localhost) as the pool's connections.
    Properties partes = Driver.parseURL(urlEfetiva, null);
    if (partes == null) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + urlEfetiva);
    }
    String hosts = partes.getProperty("PGHOST");
    String portas = partes.getProperty("PGPORT");
    if (hosts.contains(",")) {
      // Logical replication reads one server's slot; a list of hosts cannot say which one.
      throw new IllegalArgumentException(
          "Debezium needs a single host, the URL lists " + hosts + ": set publicador.banco.url");
    }
    return new ConexaoDoBanco(
        urlEfetiva,
        hosts,
        Integer.parseInt(portas),
        partes.getProperty("PGDBNAME"),
        preenchido(proprio.usuario()) ? proprio.usuario() : usuario,
        proprio.senha() != null ? proprio.senha() : senha);
  }

  private static boolean preenchido(String valor) {
    return valor != null && !valor.isBlank();
  }

  @Override
  public String toString() {
    return "ConexaoDoBanco[" + jdbcUrl + ", usuario=" + usuario + "]";
  }
}
