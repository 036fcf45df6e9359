package pedidos.bancada;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import pedidos.bancada.Medidas.Percentis;

class MedidasTest {

  @Test
  void percentisPorPostoMaisProximoEmMsSoDosAplicados() {
    // 100 applied events, inbox -> applied 1..100 ms; one answered 500 and never stored.
    List<Medidas> eventos =
        IntStream.rangeClosed(1, 100)
            .mapToObj(
                i -> new Medidas("e" + i, 0, 0, 0, 200, 1_000_000, 1_000_000 + i * 1000L, 0, 0))
            .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new));
    eventos.add(new Medidas("falhou", 0, 0, 0, 500, 0, 0, 0, 0));

    Percentis p = Percentis.de(eventos, Medidas::entradaAteAplicado);

    assertThat(p.n()).isEqualTo(100);
    assertThat(p.p50()).isEqualTo(50.0);
    assertThat(p.p99()).isEqualTo(99.0);
    assertThat(p.max()).isEqualTo(100.0);
    assertThat(Percentis.de(eventos, Medidas::entradaAteCommit).n())
        .as("no commit timestamp: not counted")
        .isZero();
  }

  @Test
  void publicacaoDivideEntradaAteAplicadoEmDuasPartes() {
    // Stored at 1 s, sent by the relay 30 ms later, applied 12 ms after that.
    var publicado = new Medidas("p", 0, 0, 0, 200, 1_000_000, 1_042_000, 0, 1_030_000);
    var semRegistro = new Medidas("s", 0, 0, 0, 200, 1_000_000, 1_042_000, 0, 0);

    assertThat(Medidas.entradaAtePublicado(publicado)).isEqualTo(30_000);
    assertThat(Medidas.publicadoAteAplicado(publicado)).isEqualTo(12_000);
    assertThat(Percentis.de(List.of(publicado, semRegistro), Medidas::entradaAtePublicado).n())
        .as("an event whose record was not found is left out, not counted as 0")
        .isEqualTo(1);
  }
}
