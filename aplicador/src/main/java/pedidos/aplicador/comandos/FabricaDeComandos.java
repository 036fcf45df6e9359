package pedidos.aplicador.comandos;

import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Makes picocli's command objects as Spring makes a bean: through a bean factory, each command
 * getting what it needs by its constructor. What else picocli makes (converters, option groups,
 * collections) its own factory makes.
 */
final class FabricaDeComandos implements CommandLine.IFactory {

  private final AutowireCapableBeanFactory beans;
  private final CommandLine.IFactory doPicocli = CommandLine.defaultFactory();

  FabricaDeComandos(AutowireCapableBeanFactory beans) {
    this.beans = beans;
  }

  @Override
  public <K> K create(Class<K> classe) throws Exception {
    return classe.isAnnotationPresent(Command.class)
        ? beans.createBean(classe)
        : doPicocli.create(classe);
  }
}
