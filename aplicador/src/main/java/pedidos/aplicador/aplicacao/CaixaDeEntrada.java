package pedidos.aplicador.aplicacao;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import pedidos.contrato.RegistroDeEvento;

/** The inbox as the consumers of {@code loja.eventos} see it. */
@Component
public class CaixaDeEntrada {

  // After a restore from an old backup the topic still has events the inbox lost: storing them
  // again is what lets a replay rebuild the inbox. The receptor's row, when present, wins.
  static final String GUARDAR_SE_AUSENTE =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
      VALUES (:eventoId, :recursoId, :tipo, :payload::jsonb, COALESCE(CAST(:recebidoEm AS timestamptz), now()))
      ON CONFLICT (evento_id) DO NOTHING
      """;

  private final JdbcClient jdbc;

  public CaixaDeEntrada(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * @return whether the event was missing and is now stored
   */
  public boolean guardarSeAusente(RegistroDeEvento evento) {
    return jdbc.sql(GUARDAR_SE_AUSENTE)
            .param("eventoId", evento.eventoId())
            .param("recursoId", evento.recursoId())
            .param("tipo", evento.tipo())
            .param("payload", evento.payload())
            .param("recebidoEm", instante(evento.recebidoEm()))
            .update()
        == 1;
  }

  /** A timestamptz parameter; the driver binds an {@link OffsetDateTime}, not an Instant. */
  static OffsetDateTime instante(Instant instante) {
    return instante == null ? null : instante.atOffset(ZoneOffset.UTC);
  }
}
