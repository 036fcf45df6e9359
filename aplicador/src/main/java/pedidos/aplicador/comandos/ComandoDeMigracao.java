package pedidos.aplicador.comandos;

import java.util.concurrent.Callable;
import pedidos.esquema.EsquemaNaPartida;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code migrar}: the migration step, run before the services (compose's {@code migracao}). */
@Command(
    name = "migrar",
    description = {
      "Runs every migration of the schema not yet run, as the schema's owner role, before any"
          + " service starts (compose's migracao step). The services never migrate: their roles"
          + " cannot; each refuses to start on a schema that is not at its migrations.",
    },
    exitCodeList = {
      "0:the schema is at this version's migrations",
      "1:a migration failed, or the database cannot be reached; each migration is a transaction"
          + " of its own: fix the cause and run it again",
      "2:usage: the database or the owner role is missing"
    })
final class ComandoDeMigracao implements Callable<Integer> {

  @Mixin OpcaoDeAjuda ajuda;
  @Mixin Ambiente.DoDono variaveis;
  @Spec CommandSpec spec;

  private final Ambiente ambiente;

  ComandoDeMigracao(Ambiente ambiente) {
    this.ambiente = ambiente;
  }

  @Override
  public Integer call() {
    Credenciais dono = ambiente.doDono(spec);
    EsquemaNaPartida.migrar(dono.url(), dono.usuario(), dono.senha());
    return ExitCode.OK;
  }
}
