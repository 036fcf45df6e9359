package pedidos.bancada;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import pedidos.infra.ServicoEmProcesso;

/**
 * The benchmark's settings, from {@code --name value} arguments; every default is the documented
 * run.
 *
 * @param frio seconds measured from the first event, the services just started
 * @param aquecimento seconds of load between the cold window and the warm one
 * @param quente seconds measured warm
 * @param java the {@code java} the services run with (the load generator and broker use the
 *     driver's)
 * @param opcoesDaJvm the services' JVM options; {@code null}: {@code ServicoEmProcesso}'s default,
 *     what the local launcher runs them with
 * @param doc the Markdown file whose benchmark section is rewritten; {@code null}: none
 * @param antes seconds of load on a first start of the services, which are then stopped and started
 *     again for the measured run, PostgreSQL and Kafka staying up and warm, as in a deployment; 0:
 *     the measured start is the first, everything fresh
 */
record OpcoesDaBancada(
    double taxa,
    int frio,
    int aquecimento,
    int quente,
    String postgres,
    String java,
    List<String> opcoesDaJvm,
    int historico,
    int pedidosPorBloco,
    Path doc,
    int antes,
    String comando) {

  static final String USO =
      """
      usage: bench/ponta-a-ponta.sh [--taxa 300] [--frio 60] [--aquecimento 60] [--quente 60]
               [--postgres 17] [--java java] [--jvm "OPTIONS"] [--historico 100000]
               [--pedidos-por-bloco 100] [--antes 0]
               [--doc docs/BENCHMARKS-ponta-a-ponta.md | --doc -]
        --taxa         events/s of fresh signed orders, open loop
        --frio         seconds measured from the first event, right after every service is ready
        --aquecimento  seconds of load between the cold and the warm window
        --quente       seconds measured warm
        --postgres     PostgreSQL major version (15 to 18)
        --java, --jvm  the java binary and JVM options of the three services (by default the
                       driver's java and the options the local launcher gives them; the shell
                       script this replaced used --jvm "-Xms1g -Xmx1g")
        --historico    orders applied a day ago, written before the services start
        --antes        seconds of load on a first start of the services, then stopped: the
                       measured start is then a deployment's, with PostgreSQL and Kafka warm
                       (0: the measured start is the first, with everything fresh)
        --doc          the file whose benchmark section is rewritten; - for none""";

  static OpcoesDaBancada ler(String[] argumentos, Path raiz) {
    double taxa = 300;
    int frio = 60;
    int aquecimento = 60;
    int quente = 60;
    String postgres = "17";
    String java = ServicoEmProcesso.javaDestaJvm();
    List<String> jvm = null;
    int historico = 100_000;
    int porBloco = 100;
    int antes = 0;
    Path doc = raiz.resolve("docs").resolve("BENCHMARKS-ponta-a-ponta.md");
    List<String> dados = new ArrayList<>();
    for (int i = 0; i < argumentos.length; i += 2) {
      String nome = argumentos[i];
      if (i + 1 >= argumentos.length) {
        throw new IllegalArgumentException(nome + " needs a value\n" + USO);
      }
      String valor = argumentos[i + 1];
      switch (nome) {
        case "--taxa" -> taxa = Double.parseDouble(valor);
        case "--frio" -> frio = Integer.parseInt(valor);
        case "--aquecimento" -> aquecimento = Integer.parseInt(valor);
        case "--quente" -> quente = Integer.parseInt(valor);
        case "--postgres" -> postgres = valor;
        case "--java" -> java = valor;
        case "--jvm" ->
            jvm = Arrays.stream(valor.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
        case "--historico" -> historico = Integer.parseInt(valor);
        case "--pedidos-por-bloco" -> porBloco = Integer.parseInt(valor);
        case "--antes" -> antes = Integer.parseInt(valor);
        case "--doc" -> doc = valor.equals("-") ? null : raiz.resolve(valor);
        default -> throw new IllegalArgumentException("unknown option " + nome + "\n" + USO);
      }
      if (!nome.equals("--doc")) {
        dados.add(nome + " " + (valor.contains(" ") ? "\"" + valor + "\"" : valor));
      }
    }
    if (taxa <= 0 || frio <= 0 || quente <= 0 || aquecimento < 0 || antes < 0) {
      throw new IllegalArgumentException("rate and windows must be positive\n" + USO);
    }
    String comando = ("bench/ponta-a-ponta.sh " + String.join(" ", dados)).trim();
    return new OpcoesDaBancada(
        taxa,
        frio,
        aquecimento,
        quente,
        postgres,
        java,
        jvm,
        historico,
        porBloco,
        doc,
        antes,
        comando);
  }

  int total() {
    return frio + aquecimento + quente;
  }
}
