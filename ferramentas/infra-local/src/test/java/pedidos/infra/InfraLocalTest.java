package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class InfraLocalTest {

  @Test
  void aCompartilhadaEhUmaSoPorJvmMesmoComChamadasConcorrentes() {
    List<CompletableFuture<InfraLocal>> chamadas =
        IntStream.range(0, 4)
            .mapToObj(i -> CompletableFuture.supplyAsync(InfraLocal::compartilhada))
            .toList();

    InfraLocal primeira = InfraLocal.compartilhada();
    assertThat(chamadas).allSatisfy(chamada -> assertThat(chamada.join()).isSameAs(primeira));
    assertThat(InfraLocal.compartilhada().postgres()).isSameAs(primeira.postgres());
    assertThat(InfraLocal.compartilhada().kafka()).isSameAs(primeira.kafka());
  }

  @Test
  void aCompartilhadaNaoSeDeixaFechar() {
    assertThatThrownBy(() -> InfraLocal.compartilhada().close())
        .isInstanceOf(IllegalStateException.class);
    assertThat(InfraLocal.compartilhada().postgres().rodando()).isTrue();
  }

  @Test
  void umaInstanciaPropriaSobeNasPortasPedidasESoltaAsPortasAoFechar() throws Exception {
    int portaDoPostgres = Portas.livre();
    int portaDoKafka = Portas.livre();
    try (InfraLocal infra =
        InfraLocal.builder()
            .portaDoPostgres(portaDoPostgres)
            .portaDoKafka(portaDoKafka)
            .iniciar()) {
      assertThat(infra).isNotSameAs(InfraLocal.compartilhada());
      assertThat(infra.postgres().porta()).isEqualTo(portaDoPostgres);
      assertThat(infra.kafka().bootstrapServers()).isEqualTo("localhost:" + portaDoKafka);
      assertThat(Sql.texto(infra.postgres(), "SHOW fsync")).isEqualTo("on");
    }
    Portas.garantirLivre(portaDoPostgres, "LOCAL_POSTGRES_PORT");
    Portas.garantirLivre(portaDoKafka, "LOCAL_KAFKA_PORT");
  }

  @Test
  void portasDoAmbienteComPadroesDoLancador() {
    Map<String, String> ambiente = new HashMap<>();
    assertThat(portas(ambiente)).containsExactly(5432, 9092);

    ambiente.put("LOCAL_POSTGRES_PORT", "15432");
    ambiente.put("LOCAL_KAFKA_PORT", " 19092 ");
    assertThat(portas(ambiente)).containsExactly(15432, 19092);

    ambiente.put("LOCAL_KAFKA_PORT", "abc");
    assertThatThrownBy(() -> portas(ambiente))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LOCAL_KAFKA_PORT");
  }

  private static List<Integer> portas(Map<String, String> ambiente) {
    InfraLocal.Builder builder = InfraLocal.builder().portasDoAmbiente(ambiente::get);
    return List.of(builder.portaPedidaDoPostgres(), builder.portaPedidaDoKafka());
  }
}
