package pedidos.receptor;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.gestao.ComOps;
import pedidos.gestao.Ops;

/**
 * Everything the receptor can be told, under {@code receptor.*}.
 *
 * @param segredos the webhook secrets; any one of them verifies a signature, so a secret can be
 *     rotated without downtime (add the new one, move the provider, drop the old one). Bound from
 *     {@code LOJA_WEBHOOK_SECRET}, comma-separated.
 * @param tamanhoMaximoDoCorpo bodies above this are refused with 413 before being read whole; at
 *     most (and by default) {@link EnvelopeDeEntrada#BYTES_DO_CORPO}, the size every later stage is
 *     sized for
 * @param corposEmMemoria the bodies all requests in flight may hold at once, from before their body
 *     is read until they are answered; a request that would go over gets 503 at once. Without it
 *     the bound would be the request threads times the body limit, and with virtual threads (Java
 *     21+) there are as many threads as connections.
 * @param comprimentoMaximoDeId longest {@code id}, {@code type} and {@code data.id} accepted
 * @param esperaSugerida the {@code Retry-After} sent with a 503
 * @param tempoLimiteDoComando how long one SQL statement may run before it is cancelled
 * @param esperaPelaGravacao how long a request waits for its row to commit before answering 503
 * @param gravacao how rows reach the database
 * @param assinatura which signature schemes are accepted
 * @param limitePorOrigem requests per second allowed from one source address
 * @param ops who may read the actuator beyond health status ({@code PEDIDOS_OPS_USUARIO}, {@code
 *     PEDIDOS_OPS_SENHA}); optional: without them only the health status answers
 */
@Validated
@ConfigurationProperties("receptor")
public record ReceptorProperties(
    @NotEmpty(
            message =
                "no webhook secret configured: set LOJA_WEBHOOK_SECRET to one or more"
                    + " comma-separated secrets; the receptor will not accept unsigned webhooks")
        List<@NotBlank(message = "LOJA_WEBHOOK_SECRET has an empty entry") String> segredos,
    @DefaultValue(EnvelopeDeEntrada.BYTES_DO_CORPO + "B") @NotNull DataSize tamanhoMaximoDoCorpo,
    @DefaultValue("128MB") @NotNull DataSize corposEmMemoria,
    @DefaultValue("200") @Min(1) @Max(100_000) int comprimentoMaximoDeId,
    @DefaultValue("5s") @NotNull Duration esperaSugerida,
    @DefaultValue("5s") @NotNull Duration tempoLimiteDoComando,
    @DefaultValue("10s") @NotNull Duration esperaPelaGravacao,
    @DefaultValue @Valid @NotNull Gravacao gravacao,
    @DefaultValue @Valid @NotNull Assinatura assinatura,
    @DefaultValue @Valid @NotNull LimitePorOrigem limitePorOrigem,
    @DefaultValue @NotNull Ops ops)
    implements ComOps {

  /**
   * Shorter keys can be guessed offline from one captured body and its signature; 32 bytes is what
   * HMAC-SHA256 can use in full.
   */
  static final int BYTES_MINIMOS_DO_SEGREDO = 32;

  public ReceptorProperties {
    segredos = segredos == null ? List.of() : List.copyOf(segredos);
    for (int i = 0; i < segredos.size(); i++) {
      int bytes = chave(segredos.get(i)).length;
      if (!segredos.get(i).isBlank() && bytes < BYTES_MINIMOS_DO_SEGREDO) {
        throw new IllegalArgumentException(
            "LOJA_WEBHOOK_SECRET: secret number "
                + (i + 1)
                + " has "
                + bytes
                + " bytes; each secret must have at least "
                + BYTES_MINIMOS_DO_SEGREDO
                + " (generate one with: openssl rand -hex 32)");
      }
    }
    if (tamanhoMaximoDoCorpo != null
        && (tamanhoMaximoDoCorpo.toBytes() < 1
            || tamanhoMaximoDoCorpo.toBytes() > EnvelopeDeEntrada.BYTES_DO_CORPO)) {
      throw new IllegalArgumentException(
          "receptor.tamanho-maximo-do-corpo must be between 1B and "
              + EnvelopeDeEntrada.BYTES_DO_CORPO
              + "B (1MB, the input envelope's body size, which the relay, the topics and the"
              + " applier are sized from), got "
              + tamanhoMaximoDoCorpo);
    }
    exigirUmCorpo("receptor.corpos-em-memoria", corposEmMemoria, tamanhoMaximoDoCorpo);
    if (gravacao != null) {
      exigirUmCorpo(
          "receptor.gravacao.bytes-na-fila", gravacao.bytesNaFila(), tamanhoMaximoDoCorpo);
    }
  }

  private static byte[] chave(String segredo) {
    try {
      return AssinaturaDeWebhook.chave(segredo);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("LOJA_WEBHOOK_SECRET: " + e.getMessage(), e);
    }
  }

  /** A byte bound below one largest body would refuse every such body: a mistake, said at start. */
  private static void exigirUmCorpo(String nome, DataSize valor, DataSize corpo) {
    if (valor == null || corpo == null) {
      return;
    }
    if (valor.toBytes() < corpo.toBytes() || valor.toBytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          nome
              + " must be at least receptor.tamanho-maximo-do-corpo ("
              + corpo
              + ") and below 2GB, got "
              + valor);
    }
  }

  public int limiteDoCorpo() {
    return (int) tamanhoMaximoDoCorpo.toBytes();
  }

  public int limiteDeCorposEmMemoria() {
    return (int) corposEmMemoria.toBytes();
  }

  /**
   * @param modo {@code grupo} (the default) batches the inserts of concurrent requests into one
   *     statement and one commit; {@code individual} commits each request's insert on its own
   * @param loteMaximo most rows in one group commit
   * @param escritores threads (and so connections) writing batches at the same time
   * @param esperaMaxima how long a writer holding a first row waits for more before writing; zero
   *     writes whatever has queued up while the previous batch was committing
   * @param filaMaxima requests waiting for a writer beyond this get a 503 at once
   * @param bytesNaFila the bodies of the events queued or being written, counted by their length
   *     (one byte per character); over it a request gets 503 at once, so a few hundred large bodies
   *     behind a slow database cannot fill the heap
   */
  public record Gravacao(
      @DefaultValue("grupo") @NotNull Modo modo,
      @DefaultValue("128") @Min(1) @Max(10_000) int loteMaximo,
      @DefaultValue("2") @Min(1) @Max(64) int escritores,
      @DefaultValue("0ms") @NotNull Duration esperaMaxima,
      @DefaultValue("10000") @Min(1) int filaMaxima,
      @DefaultValue("64MB") @NotNull DataSize bytesNaFila) {

    public int limiteDeBytesNaFila() {
      return (int) bytesNaFila.toBytes();
    }
  }

  public enum Modo {
    GRUPO,
    INDIVIDUAL
  }

  /**
   * @param esquemas {@code loja} (the store's {@code x-loja-signature}), {@code standard-webhooks}
   *     ({@code webhook-id}, {@code webhook-timestamp}, {@code webhook-signature}), or both; a
   *     request is verified by the scheme whose header it carries
   * @param tolerancia how far a {@code webhook-timestamp} may be from this server's clock, either
   *     way: a captured delivery cannot be replayed after it
   */
  public record Assinatura(
      @DefaultValue("loja") @NotEmpty List<@NotNull EsquemaDeAssinatura> esquemas,
      @DefaultValue("5m") @NotNull Duration tolerancia) {
    public Assinatura {
      esquemas = esquemas == null ? List.of() : List.copyOf(esquemas);
    }
  }

  /**
   * A token bucket per source address, checked before the body is read; off by default, since the
   * store's own bursts come from a few addresses.
   *
   * @param requisicoesPorSegundo sustained rate per address; 0 turns the limit off
   * @param rajada requests an idle address may send at once
   * @param origensMaximas addresses remembered at once; the oldest idle ones are forgotten first
   */
  public record LimitePorOrigem(
      @DefaultValue("0") @Min(0) int requisicoesPorSegundo,
      @DefaultValue("50") @Min(1) int rajada,
      @DefaultValue("10000") @Min(1) int origensMaximas) {

    public boolean ligado() {
      return requisicoesPorSegundo > 0;
    }
  }
}
