package pedidos.aplicador.aplicacao;

import java.time.Duration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.Resultado;

/**
 * What an inbox row's failed applies leave behind, counted in the row itself so that a restart does
 * not forget them: each failure delays the row's next attempt by the sweep (doubling, up to {@code
 * aplicador.espera-maxima-entre-tentativas}), and after {@code
 * aplicador.tentativas-de-falha-desconhecida} failures for an unknown reason the row is settled as
 * {@link Resultado#FALHA_DE_APLICACAO} with the failure in {@code motivo}. Transient failures are
 * not the row's fault: they delay it but never settle it.
 *
 * <p>Each call is a transaction of its own: the apply's transaction has rolled back by then. No
 * order lock is taken: the update only touches a row still pending, and a concurrent apply that
 * committed first has set {@code aplicado_em}, so this update then changes nothing.
 */
@Component
public class FalhasDeAplicacao {

  /** The longest {@code motivo} written: a failure's message can be a whole payload. */
  static final int CARACTERES_DO_MOTIVO = 1_000;

  static final String REGISTRAR_FALHA =
      """
      UPDATE webhook_eventos
         SET tentativas = tentativas + :desconhecida,
             proxima_tentativa_em = now() + make_interval(secs =>
               LEAST(:esperaMaxima, :esperaInicial * power(2, GREATEST(LEAST(tentativas + :desconhecida, 30) - 1, 0)))),
             motivo = :motivo,
             aplicado_em = CASE WHEN tentativas + :desconhecida >= :limite THEN now() END,
             resultado = CASE WHEN tentativas + :desconhecida >= :limite THEN :falha END
       WHERE evento_id = :eventoId AND aplicado_em IS NULL
      RETURNING aplicado_em IS NOT NULL AS assentado
      """;

  static final String ASSENTAR_FALHA =
      """
      UPDATE webhook_eventos
         SET tentativas = tentativas + 1, aplicado_em = now(), resultado = :falha, motivo = :motivo
       WHERE evento_id = :eventoId AND aplicado_em IS NULL
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;
  private final CaixaDeEntrada caixaDeEntrada;
  private final int limite;
  private final Duration esperaInicial;
  private final Duration esperaMaxima;

  FalhasDeAplicacao(
      JdbcClient jdbc,
      TransactionTemplate transacao,
      CaixaDeEntrada caixaDeEntrada,
      AplicadorProperties propriedades) {
    this.jdbc = jdbc;
    this.transacao = transacao;
    this.caixaDeEntrada = caixaDeEntrada;
    this.limite = propriedades.tentativasDeFalhaDesconhecida();
    this.esperaMaxima = propriedades.esperaMaximaEntreTentativas();
    // The first retry waits one sweep interval, or less when the ceiling is lower (tests).
    Duration intervalo = propriedades.varredura().intervalo();
    this.esperaInicial = intervalo.compareTo(esperaMaxima) < 0 ? intervalo : esperaMaxima;
  }

  /**
   * Counts a failed apply of a pending row.
   *
   * @return whether the row is now settled as {@link Resultado#FALHA_DE_APLICACAO}
   */
  public boolean registrar(String eventoId, Throwable falha) {
    boolean desconhecida = !FalhaTransitoria.eh(falha);
    return Boolean.TRUE.equals(
        transacao.execute(
            status ->
                jdbc.sql(REGISTRAR_FALHA)
                    .param("eventoId", eventoId)
                    .param("desconhecida", desconhecida ? 1 : 0)
                    .param("limite", limite)
                    .param("esperaInicial", segundos(esperaInicial))
                    .param("esperaMaxima", segundos(esperaMaxima))
                    .param("motivo", motivo(falha))
                    .param("falha", Resultado.FALHA_DE_APLICACAO.codigo())
                    .query(Boolean.class)
                    .optional()
                    .orElse(false)));
  }

  /**
   * Settles at once the row of a record the listener gave up on (its error handler already made its
   * attempts), storing the event first when the failed transaction took the inbox row with it.
   *
   * @return whether a pending row was settled
   */
  public boolean assentar(RegistroDeEvento evento, Throwable falha) {
    return Boolean.TRUE.equals(
        transacao.execute(
            status -> {
              caixaDeEntrada.guardarSeAusente(evento);
              return jdbc.sql(ASSENTAR_FALHA)
                      .param("eventoId", evento.eventoId())
                      .param("falha", Resultado.FALHA_DE_APLICACAO.codigo())
                      .param("motivo", motivo(falha))
                      .update()
                  == 1;
            }));
  }

  /** The innermost failure's class and message, which say what went wrong; truncated. */
  static String motivo(Throwable falha) {
    Throwable causa = NestedExceptionUtils.getMostSpecificCause(falha);
    String texto = causa.getClass().getName() + ": " + causa.getMessage();
    return texto.length() <= CARACTERES_DO_MOTIVO
        ? texto
        : texto.substring(0, CARACTERES_DO_MOTIVO - 1) + "…";
  }

  private static double segundos(Duration duracao) {
    return duracao.toMillis() / 1000.0;
  }
}
