package pedidos.publicador;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The relay's packages, one per feature, each depending only on those listed before it: its
 * settings ({@code configuracao}), the rows and the messages made of them ({@code linhas}), the
 * metrics ({@code metricas}), the Kafka side ({@code envio}), the dead letters ({@code mortos}),
 * the Debezium engine ({@code motor}), the lease and the supervisor that runs the engine ({@code
 * supervisao}), and the fallback re-send ({@code reenvio}). The root sits above them all: the
 * application, its commands and its health, which put the features together. Dependencies point one
 * way, so any package can be read, and changed, knowing only those below it.
 */
class EstruturaDosPacotesTest {

  private static final String RAIZ = "pedidos.publicador";

  private static final JavaClasses PRODUCAO =
      new ClassFileImporter()
          .withImportOption(new ImportOption.DoNotIncludeTests())
          .importPackages(RAIZ);

  @Test
  void osPacotesNaoFormamCiclos() {
    slices().matching(RAIZ + ".(*)..").should().beFreeOfCycles().check(PRODUCAO);
  }

  @Test
  void nenhumPacoteDependeDaRaiz() {
    noClasses()
        .that()
        .resideInAPackage(RAIZ + "..")
        .and()
        .resideOutsideOfPackage(RAIZ)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(RAIZ)
        .because(
            "the root puts the features together (the application, the republish command, the"
                + " health check): a feature that used it would close a cycle through it")
        .check(PRODUCAO);
  }
}
