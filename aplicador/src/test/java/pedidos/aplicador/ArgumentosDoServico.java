package pedidos.aplicador;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.UsuarioDoKafka;
import pedidos.testes.InfraDeTeste;

/**
 * The arguments a deployment's environment gives the service, on the JVM's shared PostgreSQL and
 * Kafka: for a test that starts the application as {@code main} does, outside the test context.
 */
public final class ArgumentosDoServico {

  private ArgumentosDoServico() {}

  /**
   * @param outras the test's own settings, added to (or replacing) the deployment's
   * @return {@code --name=value} arguments
   */
  public static String[] comoNumaImplantacao(Map<String, String> outras) {
    InfraLocal infra = InfraLocal.compartilhada();
    Map<String, String> p = new LinkedHashMap<>();
    p.put("spring.main.banner-mode", "off");
    p.put("spring.datasource.url", infra.postgres().jdbcUrl());
    p.put("spring.datasource.username", PapelNoBanco.APLICADOR.nome());
    p.put("spring.datasource.password", PapelNoBanco.APLICADOR.senhaLocal());
    p.put("spring.kafka.bootstrap-servers", infra.kafka().bootstrapServers());
    p.putAll(InfraDeTeste.propriedadesDoKafka(UsuarioDoKafka.ADMINISTRADOR));
    p.put("aplicador.assinatura", InfraDeTeste.ASSINATURA_LOCAL);
    p.putAll(outras);
    List<String> argumentos = new ArrayList<>();
    p.forEach((chave, valor) -> argumentos.add("--" + chave + "=" + valor));
    return argumentos.toArray(String[]::new);
  }
}
