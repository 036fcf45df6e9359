package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What operators read on the console: English prose, Portuguese only in codes and names. */
class TextoDoRelatorioTest {

  private static final ResumoDaEntrega ENTREGA =
      new ResumoDaEntrega(10, 1, 9, 3, 14, 2, 2, 8, 1, 0, 1234);

  @Test
  void relatorioQueConvergiu() {
    Relatorio relatorio =
        new Relatorio(
            4,
            ENTREGA,
            5,
            2,
            3,
            1,
            Map.of("evento_antigo", 1L, "aplicado", 7L),
            Map.of("liberar_separacao", 2L),
            new Relatorio.Separacao(3, 2, 1, 0, 0),
            List.of(),
            250);

    assertThat(relatorio.texto())
        .isEqualTo(
            """
            CONVERGED after 250 ms
            orders: 4
            events: 10, sent 9, duplicates sent 3, lost (never delivered) 1
            requests: 14 (2 resent, 2 failed), confirmed 8, refused 1, unconfirmed 0, in 1234 ms
            API: 5 order views served in 2 pages; orders with an API fact 3, reconciled 1
            inbox results: {aplicado=7, evento_antigo=1}
            outbox effects: {liberar_separacao=2}
            picking (separação): 3 messages, 2 effects, 1 duplicates dropped, 0 without \
            idempotency-key, 0 unreadable
            """);
  }

  @Test
  void relatorioQueDivergiuMostraAsPrimeiras50() {
    List<String> divergencias =
        IntStream.rangeClosed(1, 52).mapToObj(i -> "order ord_" + i + ": x").toList();
    Relatorio relatorio =
        new Relatorio(1, null, 0, 0, 0, 0, Map.of(), Map.of(), null, divergencias, 9);

    assertThat(relatorio.texto())
        .startsWith("DIVERGED after 9 ms\norders: 1\nAPI: 0 order views")
        .contains("picking (separação): not checked\n52 divergences:\n  - order ord_1: x\n")
        .contains("  - order ord_50: x\n")
        .doesNotContain("ord_51")
        .endsWith("  ... and 2 more\n");
  }

  @Test
  void linhaDeProgressoPorFase() {
    Progresso entrega = new Progresso("entrega", 10, 1, 7, 6, 9, 2, -1);

    assertThat(entrega.linha())
        .isEqualTo("delivery: 7/9 events sent, 6 confirmed, 9 requests (2 resent), 1 lost");
    assertThat(entrega.naVerificacao(3).linha())
        .isEqualTo(
            "verification: 7/9 events sent, 6 confirmed, 9 requests (2 resent), 1 lost,"
                + " 3 divergences");
  }
}
