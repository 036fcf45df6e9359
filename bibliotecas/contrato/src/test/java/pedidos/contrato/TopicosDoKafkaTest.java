package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The names live in running brokers, in the picking system's configuration and in the compose
 * file's ACL script ({@code docker/kafka/usuarios-e-acls.sh}): changing one here is a migration of
 * its own, so it must be deliberate.
 */
class TopicosDoKafkaTest {

  @Test
  void nomesECabecalhosComoEstaoNosBrokers() {
    assertThat(TopicosDoKafka.EVENTOS).isEqualTo("loja.eventos");
    assertThat(TopicosDoKafka.DESCARTE).isEqualTo("loja.eventos.DLT");
    assertThat(TopicosDoKafka.EFEITOS).isEqualTo("separacao.efeitos");
    assertThat(TopicosDoKafka.CABECALHO_DE_ASSINATURA).isEqualTo("pedidos-assinatura");
    assertThat(TopicosDoKafka.CABECALHO_DE_IDEMPOTENCIA).isEqualTo("idempotency-key");
    assertThat(TopicosDoKafka.GRUPO_DO_APLICADOR).isEqualTo("aplicador");
  }

  @Test
  void oDescarteGuardaOQueAJanelaDeReplayPrecisa() {
    assertThat(TopicosDoKafka.JANELA_DE_REPLAY).isEqualTo(Duration.ofDays(14));
    assertThat(TopicosDoKafka.RETENCAO_DO_DESCARTE).isEqualTo(TopicosDoKafka.JANELA_DE_REPLAY);
    assertThat(TopicosDoKafka.RETENCAO_DOS_EFEITOS).isGreaterThan(TopicosDoKafka.JANELA_DE_REPLAY);
  }
}
