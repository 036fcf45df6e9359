package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class InfraDeTesteTest {

  @Test
  void registraBancoEKafkaDaInfraCompartilhada() {
    Map<String, Supplier<Object>> propriedades = new HashMap<>();

    InfraDeTeste.registrar(propriedades::put);

    InfraLocal infra = InfraLocal.compartilhada();
    assertThat(propriedades.get("spring.datasource.url").get())
        .isEqualTo(infra.postgres().jdbcUrl());
    assertThat(propriedades.get("spring.datasource.username").get()).isEqualTo("postgres");
    assertThat(propriedades.get("spring.datasource.password").get()).isEqualTo("postgres");
    assertThat(propriedades.get("spring.kafka.bootstrap-servers").get())
        .isEqualTo(infra.kafka().bootstrapServers());
  }
}
