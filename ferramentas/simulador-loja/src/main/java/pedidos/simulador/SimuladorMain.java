package pedidos.simulador;

import java.io.PrintStream;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import pedidos.contrato.AutenticacaoDoKafka;
import pedidos.contrato.TopicosDoKafka;

/**
 * The simulator from the command line: serves the orders API, delivers, verifies, prints the
 * report; exit status 0 when the system converged to the truth, 1 on any divergence, 2 on a usage
 * error.
 */
public final class SimuladorMain {

  static final int OK = 0;
  static final int DIVERGIU = 1;
  static final int USO = 2;

  static final String USO_TEXTO =
      """
      usage: java -jar simulador-loja.jar --receptor=URL --segredo=S --jdbc=URL [options]
        --receptor=http://127.0.0.1:8080   the receptor's base URL (POST /webhooks/loja)
        --segredo=S                        the webhooks' HMAC secret
        --jdbc=URL --usuario=U --senha=P   the system's database (read only; user and password default to postgres)
        --kafka=HOST:PORT                  broker of separacao.efeitos (without it, picking is not checked)
        --kafka-usuario=U --kafka-senha=P  the broker's SASL/SCRAM-SHA-512 user (without them: no authentication)
        --topico-efeitos=separacao.efeitos
        --pedidos=200 --taxa=300           orders; events per second
        --perda=0.05 --duplicacao=0.3      fractions of events never delivered / delivered more than once
        --concorrencia=8                   concurrent requests
        --atraso-maximo=2s --timeout=5s --prazo-entrega=2m
        --porta-api=8089 --token-api=T     the store's orders API (-1: do not serve it); random token if absent
        --endereco-api=0.0.0.0             where the API listens (default: loopback)
        --espera=120s                      how long to wait for convergence
        --semente=1 --prefixo=P            same seed and prefix, same orders
        --exigir-verdade-final=true        every order's last fact must reach the system
      """;

  private static final Set<String> FLAGS =
      Set.of(
          "receptor",
          "segredo",
          "jdbc",
          "usuario",
          "senha",
          "kafka",
          "kafka-usuario",
          "kafka-senha",
          "topico-efeitos",
          "pedidos",
          "taxa",
          "perda",
          "duplicacao",
          "concorrencia",
          "atraso-maximo",
          "timeout",
          "prazo-entrega",
          "porta-api",
          "endereco-api",
          "token-api",
          "espera",
          "semente",
          "prefixo",
          "exigir-verdade-final",
          "ajuda");

  private SimuladorMain() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(executar(args, System.out, System.err));
  }

  static int executar(String[] args, PrintStream saida, PrintStream erros)
      throws InterruptedException {
    Simulacao.Builder builder;
    int portaDaApi;
    try {
      Argumentos argumentos = Argumentos.ler(args, FLAGS);
      if (argumentos.tem("ajuda")) {
        saida.print(USO_TEXTO);
        return OK;
      }
      portaDaApi = argumentos.inteiro("porta-api", 8089);
      builder = configurar(argumentos, saida);
      if (portaDaApi >= 0) {
        builder.portaDaApi(portaDaApi);
      }
      if (argumentos.tem("endereco-api")) {
        builder.enderecoDaApi(argumentos.texto("endereco-api", null));
      }
    } catch (IllegalArgumentException e) {
      erros.println(e.getMessage());
      erros.print(USO_TEXTO);
      return USO;
    }
    Simulacao.Builder configurado = builder;
    Simulacao simulacao;
    try {
      simulacao = configurado.construir();
    } catch (IllegalArgumentException | NullPointerException e) {
      erros.println(e.getMessage());
      erros.print(USO_TEXTO);
      return USO;
    }
    try (simulacao) {
      if (portaDaApi >= 0) {
        URI api = simulacao.iniciarApi();
        saida.println("orders API at " + api + " (token " + simulacao.tokenDaApi() + ")");
      }
      ResumoDaEntrega entrega = simulacao.entregar();
      saida.println();
      saida.println("delivery done in %d ms; verifying...".formatted(entrega.duracaoEmMs()));
      Relatorio relatorio = simulacao.verificar();
      saida.println();
      saida.print(relatorio.texto());
      return relatorio.ok() ? OK : DIVERGIU;
    }
  }

  private static Simulacao.Builder configurar(Argumentos argumentos, PrintStream saida) {
    // A terminal gets one line rewritten in place; a log file gets a line per report.
    String fimDeLinha = System.console() != null ? "\r" : "\n";
    Simulacao.Builder builder =
        Simulacao.builder()
            .receptor(URI.create(argumentos.obrigatorio("receptor")))
            .segredo(argumentos.obrigatorio("segredo"))
            .banco(
                argumentos.obrigatorio("jdbc"),
                argumentos.texto("usuario", "postgres"),
                argumentos.texto("senha", "postgres"))
            .topicoDeEfeitos(argumentos.texto("topico-efeitos", TopicosDoKafka.EFEITOS))
            .pedidos(argumentos.inteiro("pedidos", 200))
            .taxa(argumentos.decimal("taxa", 300))
            .perda(argumentos.decimal("perda", 0.05))
            .duplicacao(argumentos.decimal("duplicacao", 0.3))
            .concorrencia(argumentos.inteiro("concorrencia", 8))
            .espera(argumentos.duracao("espera", java.time.Duration.ofSeconds(120)))
            .semente(argumentos.longo("semente", 1))
            .exigirVerdadeFinal(argumentos.booleano("exigir-verdade-final", true))
            .progresso(progresso -> saida.print(progresso.linha() + fimDeLinha));
    if (argumentos.tem("kafka")) {
      builder.kafka(argumentos.obrigatorio("kafka"), clienteDoKafka(argumentos));
    }
    if (argumentos.tem("atraso-maximo")) {
      builder.atrasoMaximo(argumentos.duracao("atraso-maximo", null));
    }
    if (argumentos.tem("timeout")) {
      builder.timeout(argumentos.duracao("timeout", null));
    }
    if (argumentos.tem("prazo-entrega")) {
      builder.prazoDeEntrega(argumentos.duracao("prazo-entrega", null));
    }
    if (argumentos.tem("token-api")) {
      builder.tokenDaApi(argumentos.obrigatorio("token-api"));
    }
    if (argumentos.tem("prefixo")) {
      builder.prefixo(argumentos.obrigatorio("prefixo"));
    }
    return builder;
  }

  /**
   * SASL/SCRAM-SHA-512 when a user is given (the broker of a deployment, docs/kafka.md "Kafka
   * security"), with the standard client settings; nothing otherwise.
   */
  static Map<String, Object> clienteDoKafka(Argumentos argumentos) {
    if (!argumentos.tem("kafka-usuario")) {
      return Map.of();
    }
    String usuario = argumentos.obrigatorio("kafka-usuario");
    String senha = argumentos.obrigatorio("kafka-senha");
    if (usuario.contains("\"") || senha.contains("\"") || senha.contains("\\")) {
      throw new IllegalArgumentException("--kafka-usuario/--kafka-senha: no quotes or backslashes");
    }
    return AutenticacaoDoKafka.doCliente(usuario, senha);
  }
}
