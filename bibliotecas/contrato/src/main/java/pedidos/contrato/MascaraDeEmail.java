package pedidos.contrato;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Customer emails as ops may see them: the first character of the local part and the domain, so an
 * operator can tell two customers apart and spot a provider's pattern without reading anyone's
 * address ({@code alice@example.com} becomes {@code a***@example.com}). Every surface that shows
 * data to people (the status page, health details, logs) masks through here, so there is one rule.
 */
public final class MascaraDeEmail {

  /** What replaces whatever cannot be shown at all. */
  public static final String OCULTO = "***";

  /** What ends a word in free text: whitespace, quotes, brackets, separators, and the @ itself. */
  private static final String DELIMITADORES = "\\s@\"'`<>()\\[\\]{},;:\\\\/=";

  private static final String PALAVRA = "[^" + DELIMITADORES + "]";

  /**
   * Something shaped like an address inside free text (an exception's message, a quoted payload): a
   * run of characters that cannot delimit a JSON string, a log field or a list, an {@code @}, and
   * another such run. Loose on purpose: masking a non-address costs nothing, missing one leaks it.
   * A match starts only where a word starts and never backtracks (possessive), so a long text costs
   * one pass: otherwise each position of a long word would scan to its end again (quadratic).
   */
  private static final Pattern NO_TEXTO =
      Pattern.compile("(?<!" + PALAVRA + ")" + PALAVRA + "++@" + PALAVRA + "*+");

  private MascaraDeEmail() {}

  /**
   * One address: the first character of the local part, {@code ***}, and the domain as given.
   * {@code null} stays {@code null} (no email is not an email); a value with no {@code @} is hidden
   * whole, since nothing says which part of it identifies someone.
   */
  public static String mascarar(String email) {
    if (email == null) {
      return null;
    }
    String limpo = email.strip();
    int arroba = limpo.lastIndexOf('@');
    if (arroba < 0) {
      return OCULTO;
    }
    String local = limpo.substring(0, arroba);
    String dominio = limpo.substring(arroba + 1);
    String primeiro = local.isEmpty() ? "" : new String(Character.toChars(local.codePointAt(0)));
    // A local part of one character is shown as much as a longer one: the mask hides the length.
    return primeiro + OCULTO + "@" + dominio;
  }

  /** Every address inside {@code texto} masked, the rest untouched; {@code null} stays null. */
  public static String mascararNoTexto(String texto) {
    if (texto == null || texto.indexOf('@') < 0) {
      return texto;
    }
    Matcher m = NO_TEXTO.matcher(texto);
    return m.replaceAll(r -> Matcher.quoteReplacement(mascarar(r.group())));
  }

  /**
   * A copy of {@code falha} for a log line: each message of the chain masked, the stack traces and
   * the classes' names kept, so an ERROR still carries its exception without the row it may quote.
   */
  public static Throwable mascararNaExcecao(Throwable falha) {
    return falha == null ? null : copiar(falha, new IdentityHashMap<>());
  }

  private static Throwable copiar(Throwable falha, Map<Throwable, Throwable> copias) {
    Throwable feita = copias.get(falha);
    if (feita != null) {
      return feita;
    }
    ExcecaoMascarada copia = new ExcecaoMascarada(mascararNoTexto(falha.toString()));
    copias.put(falha, copia);
    copia.setStackTrace(falha.getStackTrace());
    if (falha.getCause() != null && falha.getCause() != falha) {
      copia.initCause(copiar(falha.getCause(), copias));
    }
    for (Throwable suprimida : falha.getSuppressed()) {
      copia.addSuppressed(copiar(suprimida, copias));
    }
    return copia;
  }

  /**
   * The masked copy of an exception. Its message starts with the original class's name (as {@link
   * Throwable#toString()} does), so the log still says what failed.
   */
  public static final class ExcecaoMascarada extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ExcecaoMascarada(String mensagem) {
      // The cause is left unset here, for initCause to set it to the masked copy.
      super(mensagem);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      // The original's trace is copied in; this constructor's own would only mislead.
      return this;
    }
  }
}
