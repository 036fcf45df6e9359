package pedidos.esquema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.testes.InfraDeTeste;

/** Each service's role can do what the service does, and nothing the others do. */
@Tag("todas-as-versoes-do-postgres")
class PrivilegiosTest {

  private static final String SEM_PRIVILEGIO = "42501";

  private static PostgresLocal postgres;
  private final String id = "priv_" + UUID.randomUUID();

  @BeforeAll
  static void infra() {
    postgres = InfraLocal.compartilhada().postgres();
    InfraDeTeste.prepararUmaVez(postgres);
  }

  @Test
  void oReceptorSoGuardaEventosEQuarentena() {
    DataSource receptor = postgres.dataSource(PapelNoBanco.RECEPTOR);
    assertThatCode(
            () ->
                executar(
                    receptor,
                    "INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)"
                        + " VALUES ('"
                        + id
                        + "', 'ord', 'order.paid', '{}')",
                    "SELECT count(*) FROM webhook_eventos",
                    "INSERT INTO webhook_quarentena (corpo, motivo) VALUES (convert_to('"
                        + id
                        + "', 'UTF8'), 'teste')"))
        .doesNotThrowAnyException();

    assertThat(estado(receptor, "SELECT * FROM pedidos")).isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(receptor, "INSERT INTO outbox (pedido_id, efeito) VALUES ('x', 'y')"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(receptor, "UPDATE webhook_eventos SET resultado = 'x'"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(receptor, "SELECT * FROM publicador_offsets")).isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(receptor, "CREATE TABLE intrusa (id int)")).isEqualTo(SEM_PRIVILEGIO);
    // A superuser's COPY ... TO PROGRAM is a shell on the database host.
    assertThat(estado(receptor, "COPY (SELECT 1) TO PROGRAM 'true'")).isEqualTo(SEM_PRIVILEGIO);
  }

  @Test
  void oPublicadorLeOsCapturadosEMarcaSoOEnvio() {
    DataSource publicador = postgres.dataSource(PapelNoBanco.PUBLICADOR);
    assertThatCode(
            () ->
                executar(
                    publicador,
                    "SELECT count(*) FROM webhook_eventos",
                    "UPDATE outbox SET enviado_em = enviado_em WHERE pedido_id = 'nenhum'",
                    "SELECT count(*) FROM publicador_offsets",
                    // the flow per minute (V14): the effects it published
                    "UPDATE fluxo_por_minuto SET publicados = publicados WHERE minuto IS NULL",
                    // the pause (V16): reads it, records only the end of a drain
                    "SELECT pausada FROM entrega_dos_efeitos",
                    "UPDATE entrega_dos_efeitos SET esvaziada_em = esvaziada_em WHERE false"))
        .doesNotThrowAnyException();
    assertThat(estado(publicador, "UPDATE entrega_dos_efeitos SET pausada = true WHERE false"))
        .as("only operators pause, through the applier")
        .isEqualTo(SEM_PRIVILEGIO);

    assertThat(estado(publicador, "UPDATE outbox SET efeito = 'x' WHERE pedido_id = 'nenhum'"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(publicador, "SELECT * FROM pedidos")).isEqualTo(SEM_PRIVILEGIO);
    assertThat(
            estado(
                publicador,
                "INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)"
                    + " VALUES ('x', 'x', 'x', '{}')"))
        .isEqualTo(SEM_PRIVILEGIO);
  }

  @Test
  void oAplicadorSoApagaOQueARetencaoApagaENaoMexeNoRelay() {
    DataSource aplicador = postgres.dataSource(PapelNoBanco.APLICADOR);
    assertThatCode(
            () ->
                executar(
                    aplicador,
                    "SELECT count(*) FROM pedidos",
                    "SELECT count(*) FROM webhook_quarentena",
                    "UPDATE cursores SET valor = valor WHERE nome = 'nenhum'",
                    // retention (V12): old quarantined bodies, sent outbox rows, a kept row's email
                    "DELETE FROM webhook_quarentena WHERE id = -1",
                    "DELETE FROM outbox WHERE pedido_id = 'nenhum'",
                    "UPDATE outbox SET cliente_email = NULL WHERE pedido_id = 'nenhum'",
                    "SELECT pedido_id FROM outbox WHERE pedido_id = 'nenhum' FOR UPDATE SKIP LOCKED",
                    // the flow per minute (V14): written and pruned by the applier
                    "INSERT INTO fluxo_por_minuto (minuto) VALUES (now()) ON CONFLICT DO NOTHING",
                    "DELETE FROM fluxo_por_minuto WHERE minuto < now() - interval '1 day'"))
        .doesNotThrowAnyException();

    assertThat(estado(aplicador, "DELETE FROM webhook_eventos WHERE evento_id = 'nenhum'"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "DELETE FROM pedidos WHERE id = 'nenhum'"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "UPDATE outbox SET efeito = 'x' WHERE pedido_id = 'nenhum'"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "UPDATE webhook_quarentena SET motivo = 'x' WHERE id = -1"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "SELECT * FROM publicador_offsets")).isEqualTo(SEM_PRIVILEGIO);
    // The erasure of a customer rewrites the relay's dead letters: it runs as the owner.
    assertThat(estado(aplicador, "UPDATE publicador_mortos SET motivo = 'x' WHERE id = -1"))
        .isEqualTo(SEM_PRIVILEGIO);
  }

  @Test
  void asAcoesDoPainelTemSoOQuePrecisam() {
    DataSource aplicador = postgres.dataSource(PapelNoBanco.APLICADOR);
    assertThatCode(
            () ->
                executar(
                    aplicador,
                    // V13: the audit, re-publish an effect, release a quarantined body, ask the
                    // relay to re-publish a dead letter
                    "INSERT INTO operacoes_auditadas (operador, acao, alvo, resultado)"
                        + " VALUES ('ops', 'teste', '"
                        + id
                        + "', 'feito')",
                    "SELECT count(*) FROM operacoes_auditadas",
                    "UPDATE outbox SET enviado_em = NULL WHERE pedido_id = 'nenhum'",
                    "UPDATE webhook_quarentena SET liberado_em = now(), liberado_como = 'x'"
                        + " WHERE id = -1",
                    "SELECT count(*) FROM publicador_mortos",
                    "UPDATE publicador_mortos SET republicacao_pedida_em = now() WHERE id = -1",
                    "UPDATE webhook_eventos SET kafka_particao = 0, kafka_offset = 0"
                        + " WHERE evento_id = 'nenhum'",
                    // V16: pause and resume delivery to the picking system
                    "UPDATE entrega_dos_efeitos SET pausada = pausada, pausada_em = pausada_em,"
                        + " pausada_por = pausada_por, motivo = motivo, retomada_em = retomada_em,"
                        + " retomada_por = retomada_por, esvaziada_em = esvaziada_em WHERE false"))
        .doesNotThrowAnyException();
    assertThat(estado(aplicador, "DELETE FROM entrega_dos_efeitos")).isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "INSERT INTO entrega_dos_efeitos (unica) VALUES (true)"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(PapelNoBanco.RECEPTOR, "SELECT * FROM entrega_dos_efeitos"))
        .isEqualTo(SEM_PRIVILEGIO);

    // The audit is only appended to.
    assertThat(estado(aplicador, "UPDATE operacoes_auditadas SET resultado = 'x'"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "DELETE FROM operacoes_auditadas")).isEqualTo(SEM_PRIVILEGIO);
    // The relay alone closes its dead letters.
    assertThat(estado(aplicador, "UPDATE publicador_mortos SET republicado_em = now()"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "UPDATE webhook_quarentena SET corpo = 'x' WHERE id = -1"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(PapelNoBanco.RECEPTOR, "SELECT * FROM operacoes_auditadas"))
        .isEqualTo(SEM_PRIVILEGIO);
  }

  @Test
  void aRederivacaoEmMassaTemSoOQuePrecisa() {
    DataSource aplicador = postgres.dataSource(PapelNoBanco.APLICADOR);
    assertThatCode(
            () ->
                executar(
                    aplicador,
                    // V17: create and advance a job, fill and read its set and its changes
                    "INSERT INTO rederivacoes_em_massa (operador, filtro, estado,"
                        + " pedidos_por_segundo, pedidos_total, fatos_total)"
                        + " VALUES ('ops', '"
                        + id
                        + "', 'simulando', 1, 0, 0)",
                    "UPDATE rederivacoes_em_massa SET estado = 'cancelado' WHERE filtro = '"
                        + id
                        + "'",
                    "INSERT INTO rederivacoes_em_massa_pedidos (lote, pedido_id)"
                        + " SELECT id, 'p' FROM rederivacoes_em_massa WHERE filtro = '"
                        + id
                        + "'",
                    "INSERT INTO rederivacoes_em_massa_mudancas (lote, fase, pedido_id)"
                        + " SELECT id, 'simulacao', 'p' FROM rederivacoes_em_massa WHERE filtro = '"
                        + id
                        + "'",
                    "SELECT count(*) FROM rederivacoes_em_massa_mudancas"))
        .doesNotThrowAnyException();

    // A job stays as the record of what was done.
    assertThat(estado(aplicador, "DELETE FROM rederivacoes_em_massa")).isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "DELETE FROM rederivacoes_em_massa_pedidos"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(aplicador, "UPDATE rederivacoes_em_massa_mudancas SET antes = 'x'"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(PapelNoBanco.RECEPTOR, "SELECT * FROM rederivacoes_em_massa"))
        .isEqualTo(SEM_PRIVILEGIO);
    assertThat(estado(PapelNoBanco.PUBLICADOR, "SELECT * FROM rederivacoes_em_massa_pedidos"))
        .isEqualTo(SEM_PRIVILEGIO);
  }

  @Test
  void soOPublicadorReplicaENenhumServicoEhSuperusuarioNemDono() throws SQLException {
    try (Connection conexao = postgres.dataSource().getConnection();
        Statement consulta = conexao.createStatement();
        var linhas =
            consulta.executeQuery(
                "SELECT rolname, rolsuper, rolreplication, rolcreaterole, rolcreatedb"
                    + " FROM pg_roles WHERE rolname LIKE 'pedidos\\_%' ORDER BY rolname")) {
      int papeis = 0;
      while (linhas.next()) {
        papeis++;
        String nome = linhas.getString(1);
        assertThat(linhas.getBoolean(2)).as("%s superuser", nome).isFalse();
        assertThat(linhas.getBoolean(3))
            .as("%s replication", nome)
            .isEqualTo(nome.equals(PapelNoBanco.PUBLICADOR.nome()));
        assertThat(linhas.getBoolean(4)).as("%s createrole", nome).isFalse();
        assertThat(linhas.getBoolean(5)).as("%s createdb", nome).isFalse();
      }
      assertThat(papeis).isEqualTo(PapelNoBanco.values().length);
    }
    assertThat(EsquemaNaPartida.avisarSeSuperusuario(postgres.dataSource(PapelNoBanco.RECEPTOR)))
        .isFalse();
    assertThat(EsquemaNaPartida.avisarSeSuperusuario(postgres.dataSource())).isTrue();
  }

  private static void executar(DataSource dataSource, String... comandos) throws SQLException {
    try (Connection conexao = dataSource.getConnection();
        Statement comando = conexao.createStatement()) {
      for (String sql : comandos) {
        comando.execute(sql);
      }
    }
  }

  private static String estado(PapelNoBanco papel, String sql) {
    return estado(postgres.dataSource(papel), sql);
  }

  /** The SQLState the statement fails with, or null when it succeeds. */
  private static String estado(DataSource dataSource, String sql) {
    try {
      executar(dataSource, sql);
      return null;
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }
}
