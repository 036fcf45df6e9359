package pedidos.aplicador;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The applier's settings.
 *
 * @param topico the topic of stored events the relay fills
 * @param topicoDeDescarte where records that can never be applied go, with the reason
 * @param particoes partitions of the topics when this service creates them
 * @param concorrencia listener threads; more than the partitions would idle
 * @param esperaPorLock how long an apply waits for a lock before failing as transient
 * @param tentativasDeFalhaDesconhecida attempts of a record that fails in an unknown way before it
 *     goes to the dead-letter topic; transient failures are retried without limit
 * @param esperaMaximaEntreTentativas the ceiling of the back-off between retries
 */
@Validated
@ConfigurationProperties("aplicador")
record AplicadorProperties(
    @DefaultValue("loja.eventos") @NotBlank String topico,
    @DefaultValue("loja.eventos.DLT") @NotBlank String topicoDeDescarte,
    @DefaultValue("12") @Min(1) int particoes,
    @DefaultValue("3") @Min(1) int concorrencia,
    @DefaultValue("5s") @NotNull Duration esperaPorLock,
    @DefaultValue("5") @Min(1) int tentativasDeFalhaDesconhecida,
    @DefaultValue("30s") @NotNull Duration esperaMaximaEntreTentativas,
    @DefaultValue @Valid Varredura varredura) {

  /**
   * @param idade events pending longer than this are applied from the inbox, without Kafka
   * @param intervalo the pause between rounds
   * @param lote events per round
   */
  record Varredura(
      @DefaultValue("30s") @NotNull Duration idade,
      @DefaultValue("5s") @NotNull Duration intervalo,
      @DefaultValue("200") @Min(1) int lote) {}
}
