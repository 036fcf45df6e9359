package pedidos.aplicador;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The applier's packages: one per feature ({@code aplicacao}, {@code ouvinte}, {@code varredura},
 * {@code reconciliacao}, {@code replay}, {@code retencao}, {@code apagamento}, {@code painel},
 * {@code comandos}) and their settings ({@code configuracao}), with the root above them: the
 * application and the schedule of the periodic work, which put the features together. Dependencies
 * point one way, so any package can be read, and changed, knowing only those below it.
 */
class EstruturaDosPacotesTest {

  private static final String RAIZ = "pedidos.aplicador";

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
            "the root puts the features together (the application, the periodic work's"
                + " schedule): a feature that used it would close a cycle through it")
        .check(PRODUCAO);
  }
}
