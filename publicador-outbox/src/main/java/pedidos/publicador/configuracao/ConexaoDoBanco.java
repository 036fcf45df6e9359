package pedidos.publicador.configuracao;

import java.time.Duration;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * The database the relay captures, as Debezium, the lease and the offset store reach it.
 *
 * <p>Derived from {@code spring.datasource.*} field by field unless {@code publicador.banco.*} says
 * otherwise, so the one set of standard variables configures every service.
 */
public record ConexaoDoBanco(
    String jdbcUrl, String host, int porta, String banco, String usuario, String senha) {

  public static ConexaoDoBanco de(
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

  /**
   * The driver properties of a connection the relay opens outside the pool (the lease, the offset
   * store): its name in {@code pg_stat_activity}, and bounds on every wait, so that a database that
   * vanished without a TCP reset (a failover, a dropped route) fails the connection instead of
   * hanging its thread. A URL parameter of the same name wins over these.
   *
   * @param socket the longest wait for any answer of the server
   * @param comando the server's {@code statement_timeout}: a statement stuck on a lock ends too
   */
  Properties propriedadesDoDriver(String aplicacao, Duration socket, Duration comando) {
    return propriedadesDoDriver(usuario, senha, aplicacao, socket, comando);
  }

  /**
   * {@link #propriedadesDoDriver(String, Duration, Duration)} for a session the server must end
   * once it has been idle for {@code ociosa}: the lease's, whose holder proves it is alive by
   * running a statement more often than that.
   */
  public Properties propriedadesDoDriver(
      String aplicacao, Duration socket, Duration comando, Duration ociosa) {
    Properties propriedades = propriedadesDoDriver(aplicacao, socket, comando);
    propriedades.setProperty(
        "options",
        propriedades.getProperty("options") + " -c idle_session_timeout=" + ociosa.toMillis());
    return propriedades;
  }

  /** {@link #propriedadesDoDriver(String, Duration, Duration)} for the given credentials. */
  public static Properties propriedadesDoDriver(
      String usuario, String senha, String aplicacao, Duration socket, Duration comando) {
    Properties propriedades = new Properties();
    propriedades.setProperty("user", usuario);
    if (senha != null) {
      propriedades.setProperty("password", senha);
    }
    propriedades.setProperty("ApplicationName", aplicacao);
    propriedades.setProperty("connectTimeout", Long.toString(ESPERA_DA_CONEXAO.toSeconds()));
    propriedades.setProperty("socketTimeout", Long.toString(socket.toSeconds()));
    // Keepalive probes find a dead peer on an idle connection, where no read is waiting to time
    // out (how soon depends on the OS's tcp_keepalive_* settings).
    propriedades.setProperty("tcpKeepAlive", "true");
    // A backend whose client vanished mid-transaction (a partition, a frozen NAT entry) is ended by
    // the server, and its locks with it; no transaction of the relay idles for more than a few ms.
    propriedades.setProperty(
        "options",
        "-c statement_timeout="
            + comando.toMillis()
            + " -c idle_in_transaction_session_timeout="
            + TRANSACAO_OCIOSA.toMillis());
    return propriedades;
  }

  /**
   * {@code idle_in_transaction_session_timeout} of every session of the relay's (the pool's too,
   * application.properties): the longest a silent client's transaction keeps its locks.
   */
  public static final Duration TRANSACAO_OCIOSA = Duration.ofSeconds(10);

  /** The longest wait to open a connection, for every connection of the relay. */
  public static final Duration ESPERA_DA_CONEXAO = Duration.ofSeconds(5);

  private static boolean preenchido(String valor) {
    return valor != null && !valor.isBlank();
  }

  @Override
  public String toString() {
    return "ConexaoDoBanco[" + jdbcUrl + ", usuario=" + usuario + "]";
  }
}
