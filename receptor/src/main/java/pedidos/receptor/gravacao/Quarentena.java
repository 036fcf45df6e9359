package pedidos.receptor.gravacao;

import java.sql.Types;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Keeps signed bodies that could not be stored as events; see {@code V3__quarentena.sql}. */
@Component
public final class Quarentena {

  static final String GUARDAR =
      """
      INSERT INTO webhook_quarentena (corpo, motivo, evento_id)
      VALUES (?, ?, ?)
      ON CONFLICT (corpo_sha256) DO UPDATE
        SET recebimentos = webhook_quarentena.recebimentos + 1,
            ultimo_recebimento_em = now()
      """;

  private final JdbcClient jdbc;

  Quarentena(JdbcClient jdbcDoReceptor) {
    this.jdbc = jdbcDoReceptor;
  }

  public void guardar(byte[] corpo, String motivo, String eventoId) {
    jdbc.sql(GUARDAR)
        .param(corpo)
        .param(textoGuardavel(motivo))
        .param(
            new SqlParameterValue(
                Types.VARCHAR, eventoId == null ? null : textoGuardavel(eventoId)))
        .update();
  }

  /**
   * The reason may quote the body (a parser message); a text column takes neither {@code \u0000}
   * nor half a surrogate pair, and failing here would turn a 400 into a 503.
   */
  static String textoGuardavel(String texto) {
    StringBuilder limpo = new StringBuilder(texto.length());
    for (int i = 0; i < texto.length(); i++) {
      char c = texto.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < texto.length()
          && Character.isLowSurrogate(texto.charAt(i + 1))) {
        limpo.append(c).append(texto.charAt(++i));
      } else if (c == '\u0000' || Character.isSurrogate(c)) {
        limpo.append('\uFFFD');
      } else {
        limpo.append(c);
      }
    }
    return limpo.toString();
  }
}
