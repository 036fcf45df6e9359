package pedidos.receptor.evento;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import pedidos.contrato.EnvelopeDeEntrada.Medidor;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.JsonExtremo;
import pedidos.receptor.PropriedadesDeTeste;
import pedidos.receptor.desfecho.Recusa;

/**
 * The envelope's jsonb arithmetic is exact: for varied events (nested objects and arrays, every
 * escape, control, non-ASCII and astral characters, numbers with exponents, decimals, trailing
 * zeros and negative zero, whitespace everywhere), what the receptor's reader measures is, to the
 * byte, {@code octet_length(body::jsonb::text)} in the real PostgreSQL; and PostgreSQL takes every
 * body the reader accepts. Each try checks a batch of bodies in one query.
 */
@Tag("todas-as-versoes-do-postgres")
class MedidaDoJsonbProperties {

  private static final LeitorDeEvento LEITOR =
      new LeitorDeEvento(
          PropriedadesDeTeste.propriedades(PropriedadesDeTeste.SO_LOJA, Entregas.SEGREDO));

  static final String TAMANHOS_NO_JSONB =
      """
      SELECT octet_length(lote.corpo::jsonb::text)
        FROM unnest(?::text[]) WITH ORDINALITY AS lote (corpo, ordem)
       ORDER BY lote.ordem
      """;

  private static Connection conexao;

  @BeforeContainer
  static void conectar() throws SQLException {
    conexao = BancoDeTeste.conectar(BancoDeTeste.compartilhado());
    // octet_length counts the server's encoding; the envelope counts UTF-8.
    assertThat(
            BancoDeTeste.contar(
                conexao, "SELECT count(*) WHERE current_setting('server_encoding') = 'UTF8'"))
        .isEqualTo(1);
  }

  @AfterContainer
  static void desconectar() throws SQLException {
    if (conexao != null) {
      conexao.close();
    }
  }

  @Provide
  Arbitrary<List<String>> lotes() {
    return eventos().list().ofMinSize(1).ofMaxSize(40);
  }

  /** A complete event whose body and data carry varied members around the required fields. */
  static Arbitrary<String> eventos() {
    Arbitrary<Map<String, String>> membros =
        Arbitraries.maps(JsonExtremo.cadeias(), JsonExtremo.valores(4)).ofMaxSize(5);
    return Combinators.combine(
            membros, membros, JsonExtremo.espacos(), JsonExtremo.numeros(), Arbitraries.longs())
        .as(
            (noTopo, noData, espaco, numero, semente) -> {
              Random r = new Random(semente);
              String data =
                  JsonExtremo.objeto(
                      juntar(
                          Map.of("id", JsonExtremo.escrever("ord_1", r, 0.5)),
                          JsonExtremo.semChaves(noData, "id")),
                      espaco,
                      r);
              return JsonExtremo.objeto(
                  juntar(
                      Map.of(
                          "id",
                          JsonExtremo.escrever("evt_1", r, 0.5),
                          "type",
                          JsonExtremo.escrever("order.paid", r, 0.5),
                          "data",
                          data,
                          "n",
                          numero),
                      JsonExtremo.semChaves(noTopo, "id", "type", "data", "n")),
                  espaco,
                  r);
            });
  }

  @Property(tries = 60)
  void oMedidorDizOTamanhoExatoDoTextoDoJsonbEOJsonbAceitaTudoOQueOLeitorAceita(
      @ForAll("lotes") List<String> corpos) throws SQLException {
    List<Long> medidos = new ArrayList<>();
    for (String corpo : corpos) {
      Medidor medidor = new Medidor();
      try {
        LEITOR.ler(corpo.getBytes(StandardCharsets.UTF_8), medidor);
      } catch (Recusa e) {
        // Every generated body is a storable event inside the envelope: nothing may be refused,
        // or the property would hold for no body at all.
        fail("refused (%s: %s): %s", e.motivo(), e.getMessage(), corpo);
      }
      medidos.add(medidor.bytesNoJsonb());
    }

    List<Long> noBanco = tamanhosNoJsonb(corpos);

    for (int i = 0; i < corpos.size(); i++) {
      assertThat(medidos.get(i)).as(corpos.get(i)).isEqualTo(noBanco.get(i));
    }
  }

  /** PostgreSQL's size of each body's jsonb text; a body it refuses fails the test by name. */
  private static List<Long> tamanhosNoJsonb(List<String> corpos) throws SQLException {
    List<Long> tamanhos = new ArrayList<>(corpos.size());
    Array lote = conexao.createArrayOf("text", corpos.toArray());
    try (PreparedStatement consulta = conexao.prepareStatement(TAMANHOS_NO_JSONB)) {
      consulta.setArray(1, lote);
      try (ResultSet linhas = consulta.executeQuery()) {
        while (linhas.next()) {
          tamanhos.add(linhas.getLong(1));
        }
      }
    } catch (SQLException e) {
      for (String corpo : corpos) {
        try (PreparedStatement uma = conexao.prepareStatement("SELECT ?::jsonb")) {
          uma.setString(1, corpo);
          uma.executeQuery().close();
        } catch (SQLException recusa) {
          fail("the reader accepted what jsonb refuses (%s): %s", recusa.getSQLState(), corpo);
        }
      }
      throw e;
    }
    return tamanhos;
  }

  private static Map<String, String> juntar(Map<String, String> fixos, Map<String, String> outros) {
    Map<String, String> todos = new java.util.LinkedHashMap<>(outros);
    todos.putAll(fixos);
    return todos;
  }
}
