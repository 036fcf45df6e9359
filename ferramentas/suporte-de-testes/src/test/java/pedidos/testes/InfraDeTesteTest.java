package pedidos.testes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;

class InfraDeTesteTest {

  @Test
  void registraBancoEKafkaDaInfraCompartilhadaComOPapelDoServico() {
    Map<String, Supplier<Object>> propriedades = new HashMap<>();

    InfraDeTeste.registrar(propriedades::put, PapelNoBanco.RECEPTOR);

    InfraLocal infra = InfraLocal.compartilhada();
    assertThat(propriedades.get("spring.datasource.url").get())
        .isEqualTo(infra.postgres().jdbcUrl());
    assertThat(propriedades.get("spring.datasource.username").get()).isEqualTo("pedidos_receptor");
    assertThat(propriedades.get("spring.datasource.password").get())
        .isEqualTo(PapelNoBanco.RECEPTOR.senhaLocal());
    assertThat(propriedades.get("spring.kafka.bootstrap-servers").get())
        .isEqualTo(infra.kafka().bootstrapServers());
  }
}
