package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.core.exc.StreamConstraintsException;

class FormatoDosRegistrosTest {

  /**
   * Records written by the relay before the codec moved here (its {@code FormatoDasMensagens} on
   * main, run once to print them): records already in Kafka must still read, and the codec must
   * write the very same bytes for the same rows, so that a relay and an aplicador of different
   * versions agree, and so does the signature over those bytes.
   */
  private static final List<String> ESCRITOS_PELO_PUBLICADOR = escritosPeloPublicador();

  private static final String PAYLOAD_DO_PRIMEIRO =
      "{\"id\": \"evt_1\", \"data\": {\"id\": \"ord_1\", \"status\": \"paid\", \"total_cents\":"
          + " 1990, \"customer_email\": \"ana@example.com\"}, \"type\": \"order.paid\","
          + " \"sequence\": 7, \"occurred_at\": \"2026-11-29T12:00:00.123Z\"}";

  @Test
  void eventoEscritoComoOPublicadorSempreEscreveu() {
    var evento =
        new RegistroDeEvento(
            "evt_1",
            "ord_1",
            "order.paid",
            PAYLOAD_DO_PRIMEIRO,
            Instant.parse("2026-11-29T12:00:00.123456Z"));

    assertThat(FormatoDosRegistros.escrever(evento))
        .isEqualTo(
            "{\"evento_id\":\"evt_1\",\"recurso_id\":\"ord_1\",\"tipo\":\"order.paid\",\"payload\":"
                + "{\"id\":\"evt_1\",\"data\":{\"id\":\"ord_1\",\"status\":\"paid\","
                + "\"total_cents\":1990,\"customer_email\":\"ana@example.com\"},"
                + "\"type\":\"order.paid\",\"sequence\":7,"
                + "\"occurred_at\":\"2026-11-29T12:00:00.123Z\"},"
                + "\"recebido_em\":\"2026-11-29T12:00:00.123456Z\"}")
        .isEqualTo(ESCRITOS_PELO_PUBLICADOR.get(0));
  }

  @Test
  void eventoComTextoENumerosDificeisEscritoByteAByteComoAntes() {
    // Non-ASCII, a surrogate pair, escapes, a control character, U+2028, numbers that a double
    // would round or a default mapper would rewrite.
    String payload =
        "{\"id\": \"evt_\\u00e9\\u4e2d\\ud83d\\ude00\", \"x\": [1.10, -0.000000000000000000001,"
            + " 123456789012345678901234567890, 1e2, 7.000000000000001, 0.1, 1.0], \"s\":"
            + " \"a\\\"b\\\\c\\n\\t\\u0001\\u2028</script>\", \"n\": null, \"t\": true, \"o\": {}}";
    var evento =
        new RegistroDeEvento(
            "evt_2", "ord_é", "order.created", payload, Instant.parse("2026-11-29T12:00:00Z"));

    assertThat(FormatoDosRegistros.escrever(evento)).isEqualTo(ESCRITOS_PELO_PUBLICADOR.get(1));
  }

  @Test
  void eventosEscritosAntesSaoLidos() {
    RegistroDeEvento primeiro = FormatoDosRegistros.lerEvento(ESCRITOS_PELO_PUBLICADOR.get(0));
    RegistroDeEvento segundo = FormatoDosRegistros.lerEvento(ESCRITOS_PELO_PUBLICADOR.get(1));

    assertThat(primeiro)
        .isEqualTo(
            new RegistroDeEvento(
                "evt_1",
                "ord_1",
                "order.paid",
                "{\"id\":\"evt_1\",\"data\":{\"id\":\"ord_1\",\"status\":\"paid\","
                    + "\"total_cents\":1990,\"customer_email\":\"ana@example.com\"},"
                    + "\"type\":\"order.paid\",\"sequence\":7,"
                    + "\"occurred_at\":\"2026-11-29T12:00:00.123Z\"}",
                Instant.parse("2026-11-29T12:00:00.123456Z")));
    assertThat(segundo.recursoId()).isEqualTo("ord_é");
    assertThat(segundo.recebidoEm()).isEqualTo(Instant.parse("2026-11-29T12:00:00Z"));
    // The payload read is the very text the relay wrote: numbers exact, nothing rewritten.
    assertThat(ESCRITOS_PELO_PUBLICADOR.get(1)).contains("\"payload\":" + segundo.payload() + ",");
    assertThat(segundo.payload())
        .contains("[1.10,-0.000000000000000000001,123456789012345678901234567890,100,");
  }

  @Test
  void efeitoEscritoComoOPublicadorSempreEscreveuSemEmail() {
    var efeito =
        new RegistroDeEfeito(
            "ord_1",
            "liberar_separacao",
            "pago",
            1990L,
            Instant.parse("2026-11-29T12:00:00.123456Z"));
    var semStatusNemTotal =
        new RegistroDeEfeito(
            "ord_2", "notificar_reembolso", null, null, Instant.parse("2026-11-29T12:00:00.100Z"));

    assertThat(FormatoDosRegistros.escrever(efeito))
        .isEqualTo(
            "{\"pedido_id\":\"ord_1\",\"efeito\":\"liberar_separacao\",\"status\":\"pago\","
                + "\"total_centavos\":1990,\"criado_em\":\"2026-11-29T12:00:00.123456Z\"}")
        .isEqualTo(ESCRITOS_PELO_PUBLICADOR.get(2))
        .doesNotContain("email");
    assertThat(FormatoDosRegistros.escrever(semStatusNemTotal))
        .isEqualTo(ESCRITOS_PELO_PUBLICADOR.get(3));
    assertThat(efeito.idempotencia()).isEqualTo("ord_1:liberar_separacao");
  }

  @Test
  void efeitosEscritosAntesSaoLidosTambemOsQueAindaTraziamOEmail() {
    assertThat(FormatoDosRegistros.lerEfeito(ESCRITOS_PELO_PUBLICADOR.get(2)))
        .isEqualTo(
            new RegistroDeEfeito(
                "ord_1",
                "liberar_separacao",
                "pago",
                1990L,
                Instant.parse("2026-11-29T12:00:00.123456Z")));
    assertThat(FormatoDosRegistros.lerEfeito(ESCRITOS_PELO_PUBLICADOR.get(3)))
        .isEqualTo(
            new RegistroDeEfeito(
                "ord_2",
                "notificar_reembolso",
                null,
                null,
                Instant.parse("2026-11-29T12:00:00.100Z")));
    // Until issue 14 the relay also wrote the customer's email; such records are still in the
    // topic for its retention, and read the same.
    assertThat(
            FormatoDosRegistros.lerEfeito(
                "{\"pedido_id\":\"ord_1\",\"efeito\":\"liberar_separacao\",\"status\":\"pago\","
                    + "\"total_centavos\":1990,\"cliente_email\":\"a@loja\","
                    + "\"criado_em\":\"2026-11-29T12:00:00Z\"}"))
        .isEqualTo(
            new RegistroDeEfeito(
                "ord_1",
                "liberar_separacao",
                "pago",
                1990L,
                Instant.parse("2026-11-29T12:00:00Z")));
  }

  @Test
  void efeitoSemPedidoOuEfeitoEIlegivelOsOutrosCamposSaoOpcionais() {
    assertThatThrownBy(() -> FormatoDosRegistros.lerEfeito("{\"pedido_id\":\"ord_1\"}"))
        .isInstanceOf(RegistroIlegivelException.class)
        .hasMessage("efeito ausente ou nao e texto");
    assertThatThrownBy(() -> FormatoDosRegistros.lerEfeito("not json"))
        .isInstanceOf(RegistroIlegivelException.class)
        .hasMessage("registro nao e JSON");
    assertThat(
            FormatoDosRegistros.lerEfeito(
                "{\"pedido_id\":\"p\",\"efeito\":\"e\",\"status\":1,\"total_centavos\":1.5,"
                    + "\"criado_em\":\"ontem\"}"))
        .isEqualTo(new RegistroDeEfeito("p", "e", null, null, null));
  }

  @Test
  void registrosQueNuncaSeraoAplicadosTemUmMotivoEstavel() {
    String[][] casos = {
      {null, "registro sem valor"},
      {"isto nao e json", "registro nao e JSON"},
      {"[1]", "registro nao e um objeto JSON"},
      {
        "{\"evento_id\":\"e\",\"recurso_id\":\"p\",\"tipo\":\"t\"}",
        "payload ausente ou nao e um objeto"
      },
      {
        "{\"evento_id\":\"e\",\"recurso_id\":\"p\",\"tipo\":\"t\",\"payload\":[]}",
        "payload ausente ou nao e um objeto"
      },
      {"{\"recurso_id\":\"p\",\"tipo\":\"t\",\"payload\":{}}", "evento_id ausente ou nao e texto"},
      {
        "{\"evento_id\":\" \",\"recurso_id\":\"p\",\"tipo\":\"t\",\"payload\":{}}",
        "evento_id ausente ou nao e texto"
      },
      {"{\"evento_id\":\"e\",\"tipo\":\"t\",\"payload\":{}}", "recurso_id ausente ou nao e texto"},
      {"{\"evento_id\":\"e\",\"recurso_id\":\"p\",\"payload\":{}}", "tipo ausente ou nao e texto"},
      {
        "{\"evento_id\":\"e\",\"recurso_id\":\"p\",\"tipo\":\"t\",\"payload\":{\"a\":\"\\u0000\"}}",
        "payload contem \\u0000"
      },
    };
    for (String[] caso : casos) {
      assertThatThrownBy(() -> FormatoDosRegistros.lerEvento(caso[0]))
          .as(caso[0])
          .isInstanceOf(RegistroIlegivelException.class)
          .hasMessage(caso[1]);
    }
    RegistroDeEvento semInstante =
        FormatoDosRegistros.lerEvento(
            "{\"evento_id\":\"e\",\"recurso_id\":\"p\",\"tipo\":\"t\",\"payload\":{},"
                + "\"recebido_em\":\"ontem\"}");
    assertThat(semInstante.recebidoEm()).as("an unreadable instant is not a reason").isNull();
  }

  @Test
  void oQueSaiDoEnvelopeNaoEEscritoNemLidoEOLimiteENomeado() {
    String fundo =
        "[".repeat(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES)
            + "]".repeat(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES);
    String[] foraDoEnvelope = {
      // 1e1000 as PostgreSQL writes it back: 1,001 digits.
      "{\"x\": 1" + "0".repeat(1000) + "}",
      "{\"x\": " + fundo + "}",
      "{\"" + "n".repeat(EnvelopeDeEntrada.CARACTERES_DE_NOME + 1) + "\": 1}",
    };
    for (String payload : foraDoEnvelope) {
      assertThatThrownBy(
              () ->
                  FormatoDosRegistros.escrever(
                      new RegistroDeEvento("e", "p", "t", payload, Instant.EPOCH)))
          .isInstanceOf(RegistroIlegivelException.class)
          .hasMessageStartingWith("payload fora do envelope: ")
          .hasRootCauseInstanceOf(StreamConstraintsException.class);
      assertThatThrownBy(() -> FormatoDosRegistros.lerEvento(registro(payload)))
          .isInstanceOf(RegistroIlegivelException.class)
          .hasMessageStartingWith(FormatoDosRegistros.FORA_DO_ENVELOPE);
    }
    String grande =
        registro("{\"x\": \"" + "x".repeat(EnvelopeDeEntrada.BYTES_DA_MENSAGEM) + "\"}");
    assertThatThrownBy(() -> FormatoDosRegistros.lerEvento(grande))
        .isInstanceOf(RegistroIlegivelException.class)
        .hasMessageStartingWith(FormatoDosRegistros.FORA_DO_ENVELOPE);
    assertThatThrownBy(
            () -> FormatoDosRegistros.escrever(new RegistroDeEvento("e", "p", "t", "[]", null)))
        .isInstanceOf(RegistroIlegivelException.class)
        .hasMessage("payload ausente ou nao e um objeto");
  }

  @Test
  void noLimiteDoEnvelopeEscreveELe() {
    // The body's own object is level 1; the record adds one level around it.
    String aninhado =
        "[".repeat(EnvelopeDeEntrada.PROFUNDIDADE - 1)
            + "1"
            + "]".repeat(EnvelopeDeEntrada.PROFUNDIDADE - 1);
    String payload =
        "{\"a\": %s, \"n\": %s, \"%s\": 1, \"c\": \"%s\"}"
            .formatted(
                aninhado,
                "9".repeat(EnvelopeDeEntrada.CARACTERES_DE_NUMERO_NO_JSONB),
                // A key of the most characters, each taking three bytes in UTF-8.
                "\u4e2d".repeat(EnvelopeDeEntrada.CARACTERES_DE_NOME),
                "x".repeat(EnvelopeDeEntrada.BYTES_NO_JSONB - 20_000));
    var evento = new RegistroDeEvento("e", "p", "t", payload, Instant.EPOCH);

    String escrito = FormatoDosRegistros.escrever(evento);
    RegistroDeEvento lido = FormatoDosRegistros.lerEvento(escrito);

    assertThat(lido.payload().length()).isGreaterThan(EnvelopeDeEntrada.BYTES_DO_CORPO);
    assertThat(FormatoDosRegistros.escrever(lido)).isEqualTo(escrito);
  }

  /** Whatever the relay writes, the aplicador reads back as the same record. */
  @Property(tries = 300)
  void idaEVolta(
      @ForAll("textos") String eventoId,
      @ForAll("textos") String recursoId,
      @ForAll("textos") String tipo,
      @ForAll("payloads") String payload,
      @ForAll("instantes") Instant recebidoEm) {
    var evento = new RegistroDeEvento(eventoId, recursoId, tipo, payload, recebidoEm);

    RegistroDeEvento lido = FormatoDosRegistros.lerEvento(FormatoDosRegistros.escrever(evento));

    assertThat(lido.eventoId()).isEqualTo(eventoId);
    assertThat(lido.recursoId()).isEqualTo(recursoId);
    assertThat(lido.tipo()).isEqualTo(tipo);
    assertThat(lido.recebidoEm()).isEqualTo(recebidoEm);
    assertThat(FormatoDosRegistros.escrever(lido)).isEqualTo(FormatoDosRegistros.escrever(evento));
  }

  @Property(tries = 300)
  void idaEVoltaDoEfeito(
      @ForAll("textos") String pedidoId,
      @ForAll("textos") String efeito,
      @ForAll("textosOuNulo") String status,
      @ForAll Long totalCentavos,
      @ForAll("instantes") Instant criadoEm) {
    var registro = new RegistroDeEfeito(pedidoId, efeito, status, totalCentavos, criadoEm);

    assertThat(FormatoDosRegistros.lerEfeito(FormatoDosRegistros.escrever(registro)))
        .isEqualTo(registro);
  }

  @Provide
  Arbitrary<String> textos() {
    return Arbitraries.strings()
        .all()
        .excludeChars('\u0000')
        .ofMinLength(1)
        .ofMaxLength(40)
        .filter(texto -> !texto.isBlank());
  }

  @Provide
  Arbitrary<String> textosOuNulo() {
    return textos().injectNull(0.2);
  }

  @Provide
  Arbitrary<Instant> instantes() {
    return Arbitraries.longs()
        .between(0, 4_102_444_800_000_000L)
        .map(micros -> Instant.EPOCH.plusNanos(micros * 1000))
        .injectNull(0.1);
  }

  @Provide
  Arbitrary<String> payloads() {
    Arbitrary<String> valores =
        Arbitraries.oneOf(
            Arbitraries.integers()
                .between(0, 12)
                .flatMap(
                    escala ->
                        Arbitraries.bigDecimals()
                            .between(new BigDecimal("-1e30"), new BigDecimal("1e30"))
                            .ofScale(escala))
                .map(BigDecimal::toPlainString),
            Arbitraries.longs().map(String::valueOf),
            textos().map(FormatoDosRegistrosTest::jsonDeTexto),
            Arbitraries.of("true", "false", "null", "{}", "[]"));
    return Arbitraries.maps(textos(), valores)
        .ofMaxSize(6)
        .map(
            campos -> {
              var json = new StringBuilder("{");
              campos.forEach(
                  (nome, valor) -> {
                    if (json.length() > 1) {
                      json.append(", ");
                    }
                    json.append(jsonDeTexto(nome)).append(": ").append(valor);
                  });
              return json.append('}').toString();
            });
  }

  private static String jsonDeTexto(String texto) {
    var json = new StringBuilder("\"");
    for (char c : texto.toCharArray()) {
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append('"').toString();
  }

  private static String registro(String payload) {
    return "{\"evento_id\": \"e1\", \"recurso_id\": \"ord1\", \"tipo\": \"order.paid\", \"payload\": "
        + payload
        + "}";
  }

  private static List<String> escritosPeloPublicador() {
    try (InputStream entrada =
        FormatoDosRegistrosTest.class.getResourceAsStream(
            "/registros-escritos-pelo-publicador.txt")) {
      return new String(entrada.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
