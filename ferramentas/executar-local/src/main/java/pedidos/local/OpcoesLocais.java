package pedidos.local;

import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * How the local run is configured: flags on the command line, ports and the secret from the
 * environment, each with a default that works on a fresh machine.
 *
 * @param demo also run the provider simulator against the system, with its report
 * @param limpo start with an empty database instead of the one kept from the last run
 * @param assinaturaDoKafka the key the relay signs Kafka records with and the aplicador verifies
 */
record OpcoesLocais(
    boolean demo,
    boolean limpo,
    Path diretorio,
    int portaDoPostgres,
    int portaDoKafka,
    int portaDoReceptor,
    int portaDoAplicador,
    int portaDoPublicador,
    int portaDaApiDaLoja,
    String segredo,
    String assinaturaDoKafka,
    int pedidosDoDemo) {

  static final String USO =
      """
      usage: ./executar-local.sh [--demo] [--limpo]
        --demo   also run the provider simulator against the system and print its report
        --limpo  start with an empty database (the data of the last run is kept otherwise)
      environment: LOCAL_POSTGRES_PORT (5432), LOCAL_POSTGRES_VERSION (17; 15 to 18),
        LOCAL_KAFKA_PORT (9092), RECEPTOR_PORT (8080), APLICADOR_PORT (8082), PUBLICADOR_PORT
        (8083), LOJA_API_PORT (8089, the simulated orders API), LOJA_WEBHOOK_SECRET
        (segredo-local-de-desenvolvimento-32b), PEDIDOS_KAFKA_ASSINATURA
        (assinatura-local-de-registros-kafka-32b), DEMO_PEDIDOS (200)""";

  static OpcoesLocais ler(List<String> argumentos, UnaryOperator<String> ambiente) {
    boolean demo = false;
    boolean limpo = false;
    for (String argumento : argumentos) {
      switch (argumento) {
        case "--demo" -> demo = true;
        case "--limpo" -> limpo = true;
        default -> throw new IllegalArgumentException("unknown option " + argumento + "\n" + USO);
      }
    }
    return new OpcoesLocais(
        demo,
        limpo,
        Path.of(".local"),
        porta(ambiente, "LOCAL_POSTGRES_PORT", 5432),
        porta(ambiente, "LOCAL_KAFKA_PORT", 9092),
        porta(ambiente, "RECEPTOR_PORT", 8080),
        porta(ambiente, "APLICADOR_PORT", 8082),
        porta(ambiente, "PUBLICADOR_PORT", 8083),
        porta(ambiente, "LOJA_API_PORT", 8089),
        texto(ambiente, "LOJA_WEBHOOK_SECRET", "segredo-local-de-desenvolvimento-32b"),
        texto(ambiente, "PEDIDOS_KAFKA_ASSINATURA", "assinatura-local-de-registros-kafka-32b"),
        porta(ambiente, "DEMO_PEDIDOS", 200));
  }

  private static int porta(UnaryOperator<String> ambiente, String variavel, int padrao) {
    String valor = ambiente.apply(variavel);
    if (valor == null || valor.isBlank()) {
      return padrao;
    }
    try {
      return Integer.parseInt(valor.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(variavel + " must be a number, got '" + valor + "'");
    }
  }

  private static String texto(UnaryOperator<String> ambiente, String variavel, String padrao) {
    String valor = ambiente.apply(variavel);
    return valor == null || valor.isBlank() ? padrao : valor;
  }
}
