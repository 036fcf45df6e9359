package pedidos.aplicador;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import pedidos.aplicador.comandos.LinhaDeComando;
import pedidos.infra.InfraLocal;
import pedidos.testes.InfraDeTeste;

/**
 * The applier's command line run as an operator runs it, what it prints captured. A command that
 * needs the service's context ({@code replay}) gets it as {@code main} starts it, on the JVM's
 * shared PostgreSQL and Kafka.
 */
public final class LinhaDeComandoDeTeste {

  /** What one run returned and printed. */
  public record Execucao(int codigo, String saida, String erro) {}

  private LinhaDeComandoDeTeste() {}

  /**
   * @param ambiente the variables the command reads, as the process's environment would give them
   */
  public static Execucao executar(Map<String, String> ambiente, String... argumentos) {
    var saida = new StringWriter();
    var erro = new StringWriter();
    int codigo =
        LinhaDeComando.executar(
            argumentos,
            ambiente,
            LinhaDeComandoDeTeste::servicoSemOuvinte,
            new PrintWriter(saida),
            new PrintWriter(erro));
    return new Execucao(codigo, saida.toString(), erro.toString());
  }

  /** {@link AplicadorApplication#semOuvinte} with what a deployment's environment would say. */
  private static ConfigurableApplicationContext servicoSemOuvinte() {
    InfraLocal infra = InfraLocal.compartilhada();
    InfraDeTeste.prepararUmaVez(infra.postgres());
    TopicosDeTeste.comoORelay();
    return AplicadorApplication.semOuvinte(ArgumentosDoServico.comoNumaImplantacao(Map.of()));
  }
}
