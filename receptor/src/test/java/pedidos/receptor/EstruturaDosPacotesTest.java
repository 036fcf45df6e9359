package pedidos.receptor;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * A package per feature (the HTTP edge, the signature, the event's reading, the inbox's writing,
 * what a delivery came to), each depending only on those it uses and never back: a change to one
 * feature cannot need a change to a feature it serves. The root package holds what every feature
 * reads (the application, its configuration) and depends on none of them.
 */
class EstruturaDosPacotesTest {

  private static final JavaClasses RECEPTOR =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("pedidos.receptor");

  @Test
  void osPacotesDasFuncionalidadesNaoFormamCiclo() {
    slices().matching("pedidos.receptor.(*)..").should().beFreeOfCycles().check(RECEPTOR);
  }

  @Test
  void aRaizNaoDependeDeNenhumaFuncionalidade() {
    noClasses()
        .that()
        .resideInAPackage("pedidos.receptor")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("pedidos.receptor.*..")
        .check(RECEPTOR);
  }
}
