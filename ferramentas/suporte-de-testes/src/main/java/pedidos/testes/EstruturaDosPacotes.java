package pedidos.testes;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

/**
 * The package rules of a service with a package per feature, checked on its production classes only
 * (a test may reach across features to arrange a case): no cycle between the root's subpackages
 * ({@code raiz.(*)..}, each taken with its own subpackages), and the root on one side of them. Each
 * check throws an {@link AssertionError} naming every offending dependency of both rules.
 */
public final class EstruturaDosPacotes {

  private EstruturaDosPacotes() {}

  /**
   * The root puts the features together (the application, what runs them): no subpackage uses the
   * root's own classes.
   */
  public static void semCiclosComARaizPorCima(String raiz) {
    ArchRule nenhumPacoteDependeDaRaiz =
        noClasses()
            .that()
            .resideInAPackage(raiz + "..")
            .and()
            .resideOutsideOfPackage(raiz)
            .should()
            .dependOnClassesThat()
            .resideInAPackage(raiz)
            .because(
                "the root puts the features together: a feature that used it would close a cycle"
                    + " through it");
    CompositeArchRule.of(semCiclos(raiz)).and(nenhumPacoteDependeDaRaiz).check(producao(raiz));
  }

  /**
   * The root holds what every feature reads (the application, its configuration): it uses none of
   * its subpackages.
   */
  public static void semCiclosComARaizPorBaixo(String raiz) {
    ArchRule aRaizNaoDependeDeNenhumPacote =
        noClasses()
            .that()
            .resideInAPackage(raiz)
            .should()
            .dependOnClassesThat()
            .resideInAPackage(raiz + ".*..");
    CompositeArchRule.of(semCiclos(raiz)).and(aRaizNaoDependeDeNenhumPacote).check(producao(raiz));
  }

  private static ArchRule semCiclos(String raiz) {
    return slices().matching(raiz + ".(*)..").should().beFreeOfCycles();
  }

  private static JavaClasses producao(String raiz) {
    return new ClassFileImporter()
        .withImportOption(new ImportOption.DoNotIncludeTests())
        .importPackages(raiz);
  }
}
