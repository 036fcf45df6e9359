package pedidos.publicador.reenvio;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.publicador.linhas.ChaveDoEfeito;
import pedidos.testes.InfraDeTeste;

/**
 * The fallback leaves out the outbox rows whose dead letter is open, however old they are: one row
 * Kafka refuses for good must not be re-sent every interval, nor hold back the rows behind it.
 */
@Tag("todas-as-versoes-do-postgres")
class ReenvioDoOutboxTest {

  private final PostgresLocal postgres = InfraLocal.compartilhada().postgres();
  // The owner arranges the rows; the query runs as the relay's role, as the fallback runs it.
  private final JdbcClient dono = JdbcClient.create(postgres.dataSource());
  private final JdbcClient publicador =
      JdbcClient.create(postgres.dataSource(PapelNoBanco.PUBLICADOR));
  private final String prefixo = "ro" + UUID.randomUUID().toString().substring(0, 6) + "-";

  @AfterEach
  void limpar() {
    dono.sql("DELETE FROM publicador_mortos WHERE chave ->> 'pedido_id' LIKE ?")
        .param(prefixo + "%")
        .update();
    dono.sql("DELETE FROM outbox WHERE pedido_id LIKE ?").param(prefixo + "%").update();
  }

  @Test
  void soOsMortosAbertosFicamForaDoReenvio() {
    InfraDeTeste.prepararUmaVez(postgres);
    ChaveDoEfeito morto = efeito("morto");
    ChaveDoEfeito republicado = efeito("republicado");
    ChaveDoEfeito vivo = efeito("vivo");
    for (ChaveDoEfeito chave : List.of(morto, republicado, vivo)) {
      dono.sql(
              """
              INSERT INTO outbox (pedido_id, efeito, status, total_centavos, criado_em)
              VALUES (?, ?, 'pago', 1, now() - interval '1 hour')
              """)
          .params(chave.pedidoId(), chave.efeito())
          .update();
    }
    morrer(morto, false);
    morrer(republicado, true);

    List<String> pendentes =
        publicador
            .sql(ReenvioDoOutbox.PENDENTES_ANTIGOS)
            .param("idade", 60.0)
            .param("lote", Integer.MAX_VALUE)
            .query((linha, n) -> linha.getString("pedido_id"))
            .list();

    assertThat(pendentes)
        .contains(vivo.pedidoId(), republicado.pedidoId())
        .doesNotContain(morto.pedidoId());
  }

  /**
   * The drain after a pause: the orders with the oldest unsent effect first, each order's effects
   * whole and in the order they are born, whatever their {@code criado_em} says (a transaction that
   * waited for the order's lock stamps a later effect with an earlier time), and no dead letter.
   */
  @Test
  void oEsvaziamentoMandaCadaPedidoNaOrdemEmQueSeusEfeitosNascem() {
    InfraDeTeste.prepararUmaVez(postgres);
    // Older than anything another test leaves unsent: they come first in the drain's order.
    inserir("a", "liberar_separacao", "1999-01-01T00:00:10Z");
    inserir("a", "interromper_separacao", "1999-01-01T00:00:05Z");
    inserir("a", "notificar_reembolso", "1999-01-01T00:00:07Z");
    inserir("b", "liberar_separacao", "1999-01-01T00:00:06Z");
    inserir("c", "liberar_separacao", "1999-01-01T00:00:01Z");
    morrer(new ChaveDoEfeito(prefixo + "c", "liberar_separacao"), false);

    assertThat(esvaziamento(10))
        .startsWith(
            "a/liberar_separacao",
            "a/interromper_separacao",
            "a/notificar_reembolso",
            "b/liberar_separacao")
        .doesNotContain("c/liberar_separacao");
    // A step's budget cuts an order after its older effects, never before them.
    assertThat(esvaziamento(2)).containsExactly("a/liberar_separacao", "a/interromper_separacao");
    assertThat(publicador.sql(ReenvioDoOutbox.ALGUM_PENDENTE).query(Boolean.class).single())
        .isTrue();
  }

  /**
   * The fallback sends each order's effects in the order they are born too: one sub-batch's effects
   * share their transaction's start, and a transaction that waited for the order's lock stamps a
   * later effect with an earlier time; the picking system must never see an interruption before its
   * release. Rows younger than the fallback's age are the stream's, and wait.
   */
  @Test
  void oReenvioMandaCadaPedidoNaOrdemEmQueSeusEfeitosNascem() {
    InfraDeTeste.prepararUmaVez(postgres);
    // Older than anything another test leaves unsent, the drain's test included.
    inserir("d", "interromper_separacao", "1998-01-01T00:00:00Z");
    inserir("d", "notificar_reembolso", "1998-01-01T00:00:00Z");
    inserir("d", "liberar_separacao", "1998-01-01T00:00:00Z");
    inserir("e", "interromper_separacao", "1998-01-01T00:00:01Z");
    inserir("e", "liberar_separacao", "1998-01-01T00:00:02Z");
    inserir("f", "liberar_separacao", "1998-01-01T00:00:03Z");
    inserir("f", "interromper_separacao", Instant.now().toString());

    assertThat(lidos(ReenvioDoOutbox.PENDENTES_ANTIGOS, Map.of("idade", 60.0, "lote", 10)))
        .startsWith(
            "d/liberar_separacao",
            "d/interromper_separacao",
            "d/notificar_reembolso",
            "e/liberar_separacao",
            "e/interromper_separacao",
            "f/liberar_separacao")
        .doesNotContain("f/interromper_separacao");
  }

  private List<String> esvaziamento(int lote) {
    return lidos(ReenvioDoOutbox.PENDENTES_EM_ORDEM, Map.of("lote", lote));
  }

  /** The effects a batch's query reads, as order/effect, the order's name without the prefix. */
  private List<String> lidos(String consulta, Map<String, ?> parametros) {
    return publicador
        .sql(consulta)
        .params(parametros)
        .query(
            (linha, n) ->
                linha.getString("pedido_id").replace(prefixo, "") + "/" + linha.getString("efeito"))
        .list();
  }

  private void inserir(String pedido, String efeito, String criadoEm) {
    dono.sql(
            """
            INSERT INTO outbox (pedido_id, efeito, status, total_centavos, criado_em)
            VALUES (?, ?, 'pago', 1, CAST(? AS timestamptz))
            """)
        .params(prefixo + pedido, efeito, criadoEm)
        .update();
  }

  private ChaveDoEfeito efeito(String nome) {
    return new ChaveDoEfeito(prefixo + nome, "liberar_separacao");
  }

  /** A dead letter keyed as the relay records it ({@link ChaveDoEfeito#json}). */
  private void morrer(ChaveDoEfeito chave, boolean republicado) {
    dono.sql(
            """
            INSERT INTO publicador_mortos (tabela, chave, motivo, republicado_em)
            VALUES ('outbox', CAST(? AS jsonb), 'refused', CASE WHEN ? THEN now() END)
            """)
        .params(chave.json(), republicado)
        .update();
  }
}
