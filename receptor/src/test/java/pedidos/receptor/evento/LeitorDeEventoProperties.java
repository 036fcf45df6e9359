package pedidos.receptor.evento;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.JsonAleatorio;
import pedidos.receptor.PropriedadesDeTeste;
import pedidos.receptor.desfecho.Recusa;

/**
 * The event reader on arbitrary input: it extracts exactly the fields it was given or refuses with
 * the right reason, and it never lets through a body that PostgreSQL's jsonb would refuse (checked
 * against the real database).
 */
class LeitorDeEventoProperties {

  private static final int MAXIMO = 200;
  private static final LeitorDeEvento LEITOR =
      new LeitorDeEvento(
          PropriedadesDeTeste.propriedades(PropriedadesDeTeste.SO_LOJA, Entregas.SEGREDO));
  private static Connection conexao;

  @BeforeContainer
  static void conectar() throws SQLException {
    conexao = BancoDeTeste.conectar(BancoDeTeste.compartilhado());
  }

  @AfterContainer
  static void desconectar() throws SQLException {
    if (conexao != null) {
      conexao.close();
    }
  }

  @Provide
  Arbitrary<String> textos() {
    return JsonAleatorio.textos();
  }

  @Provide
  Arbitrary<String> extras() {
    return JsonAleatorio.valores(3);
  }

  @Property(tries = 400)
  void extraiExatamenteOsCamposOuDizPorQueNao(
      @ForAll("textos") String id,
      @ForAll("textos") String tipo,
      @ForAll("textos") String pedido,
      @ForAll boolean cru) {
    String json =
        "{\"id\": "
            + JsonAleatorio.escrever(id, cru)
            + ", \"type\": "
            + JsonAleatorio.escrever(tipo, cru)
            + ", \"data\": {\"id\": "
            + JsonAleatorio.escrever(pedido, cru)
            + "}}";
    byte[] corpo = json.getBytes(StandardCharsets.UTF_8);
    String esperado = motivoEsperado(id, tipo, pedido);

    if (esperado == null) {
      EventoRecebido evento = LEITOR.ler(corpo);
      assertThat(evento.eventoId()).isEqualTo(id);
      assertThat(evento.tipo()).isEqualTo(tipo);
      assertThat(evento.recursoId()).isEqualTo(pedido);
      assertThat(evento.json()).isEqualTo(json);
    } else {
      Recusa recusa = catchThrowableOfType(Recusa.class, () -> LEITOR.ler(corpo));
      assertThat(recusa).as(json).isNotNull();
      assertThat(recusa.motivo()).as(json).isEqualTo(esperado);
    }
  }

  @Property(tries = 300)
  void oQueOLeitorAceitaOJsonbAceitaEOQueRecusaPorTextoOJsonbTambemRecusa(
      @ForAll("extras") String extra) throws SQLException {
    String json =
        "{\"id\": \"evt_1\", \"type\": \"order.paid\", \"data\": {\"id\": \"ord_1\"}, \"extra\": "
            + extra
            + "}";
    Recusa recusa = null;
    try {
      LEITOR.ler(json.getBytes(StandardCharsets.UTF_8));
    } catch (Recusa e) {
      recusa = e;
    }

    boolean jsonbAceita = jsonbAceita(json);

    if (recusa == null) {
      assertThat(jsonbAceita).as(json).isTrue();
    } else {
      assertThat(recusa.motivo()).as(json).isIn("caractere_nulo", "surrogate_isolado");
      assertThat(jsonbAceita).as(json).isFalse();
    }
  }

  /** What the reader must say, in the order it reads: strings first, then the fields. */
  private static String motivoEsperado(String... campos) {
    for (String campo : campos) {
      String problema = problemaDeTexto(campo);
      if (problema != null) {
        return problema;
      }
    }
    for (String campo : campos) {
      if (campo.isBlank()) {
        return "campo_vazio";
      }
      if (campo.length() > MAXIMO) {
        return "campo_longo_demais";
      }
    }
    return null;
  }

  private static String problemaDeTexto(String texto) {
    for (int i = 0; i < texto.length(); i++) {
      char c = texto.charAt(i);
      if (c == '\u0000') {
        return "caractere_nulo";
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < texto.length()
          && Character.isLowSurrogate(texto.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return "surrogate_isolado";
      }
    }
    return null;
  }

  /** The cast itself, not PostgreSQL 16's pg_input_is_valid: the tests run on 15 too. */
  private static boolean jsonbAceita(String json) throws SQLException {
    try (PreparedStatement consulta = conexao.prepareStatement("SELECT ?::jsonb")) {
      consulta.setString(1, json);
      consulta.executeQuery().close();
      return true;
    } catch (SQLException e) {
      if (e.getSQLState() != null && e.getSQLState().startsWith("22")) {
        return false;
      }
      throw e;
    }
  }
}
