package pedidos.publicador.linhas;

import pedidos.contrato.MascaraDeEmail;

/**
 * A captured row the relay gave up on: it cannot be encoded, or Kafka refused its record for good.
 *
 * @param motivo why, as the failure said it
 * @param causa the failure itself, for the log
 */
public record Morto(OrigemDaLinha origem, String motivo, Throwable causa) {

  // The reason is kept whole enough to act on, not a whole payload a parser may quote.
  private static final int TAMANHO_DO_MOTIVO = 2_000;

  public static Morto de(OrigemDaLinha origem, Throwable causa) {
    // The whole chain: "not JSON in payload" alone does not say which limit the row broke.
    StringBuilder texto = new StringBuilder(causa.toString());
    java.util.Set<Throwable> vistas = new java.util.HashSet<>(java.util.List.of(causa));
    for (Throwable t = causa.getCause(); t != null && vistas.add(t); t = t.getCause()) {
      texto.append(" <- ").append(t);
    }
    // PostgreSQL's text cannot hold U+0000, and a reason the table refuses would stop the relay on
    // the very row it is trying to get past.
    // A parser's message may quote the row it could not read: customer emails are masked.
    String motivo = MascaraDeEmail.mascararNoTexto(texto.toString()).replace('\u0000', '?');
    if (motivo.length() > TAMANHO_DO_MOTIVO) {
      motivo = motivo.substring(0, TAMANHO_DO_MOTIVO) + "...";
    }
    return new Morto(origem, motivo, causa);
  }
}
