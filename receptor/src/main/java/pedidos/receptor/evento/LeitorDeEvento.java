package pedidos.receptor.evento;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.springframework.stereotype.Component;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.contrato.EnvelopeDeEntrada.Medidor;
import pedidos.contrato.EnvelopeDeEntrada.Violacao;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Recusa;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * Turns a signed body into an {@link EventoRecebido}, or refuses it with the reason.
 *
 * <p>The body is stored as sent ({@code payload::jsonb}), so what passes here must be what
 * PostgreSQL accepts: strict UTF-8, one JSON object and nothing after it, no duplicate keys (jsonb
 * keeps the last one, which would let {@code id} say one thing here and another in the row), no
 * {@code \u0000} and no lone surrogate in any string or key (jsonb rejects both). Whatever still
 * slipped through would be refused by PostgreSQL itself and end in quarantine the same way ({@code
 * recusado_pelo_banco}).
 *
 * <p>And it must be inside the {@link EnvelopeDeEntrada input envelope}, which every later stage is
 * sized from: each token goes to a {@link Medidor}, which refuses a body too deep, with a key,
 * string or number too long, a number jsonb would write out with too many digits, or a jsonb text
 * too large. The parser itself carries the same limits ({@link RestricoesDoEnvelope}), so a
 * 10,000-level body or a 100,000-digit number stops the parser there, with the same reason.
 *
 * <p>One streaming pass, no tree: only {@code id}, {@code type} and {@code data.id} are kept.
 */
@Component
public final class LeitorDeEvento {

  static final JsonFactory JSON =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(new RestricoesDoEnvelope())
          .build();

  private final int comprimentoMaximo;

  LeitorDeEvento(ReceptorProperties propriedades) {
    this.comprimentoMaximo = propriedades.comprimentoMaximoDeId();
  }

  public EventoRecebido ler(byte[] corpo) {
    return ler(corpo, new Medidor());
  }

  /** Reads with the given measurer, which holds the size of the body's jsonb text afterwards. */
  EventoRecebido ler(byte[] corpo, Medidor medidor) {
    String texto = utf8(corpo);
    Campos campos = new Campos();
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), texto)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw Recusa.corpoInvalido("nao_e_objeto", "The body must be a JSON object.");
      }
      percorrer(parser, campos, medidor);
    } catch (ForaDoEnvelope e) {
      throw Recusa.corpoInvalido(
          e.violacao().motivo(), e.violacao().mensagem(), campos.idLegivel());
    } catch (JacksonException e) {
      throw Recusa.corpoInvalido(
          "json_invalido", "The body is not valid JSON: " + descrever(e), campos.idLegivel());
    } catch (Recusa e) {
      // Only a CORPO_INVALIDO is thrown above; it learns the id if one was read before it.
      throw e.eventoId() == null && campos.idLegivel() != null
          ? Recusa.corpoInvalido(e.motivo(), e.getMessage(), campos.idLegivel())
          : e;
    }
    String eventoId = campos.exigir("id", campos.id, campos.tipoDoId, comprimentoMaximo, null);
    String tipo =
        campos.exigir("type", campos.type, campos.tipoDoType, comprimentoMaximo, eventoId);
    if (campos.tipoDoData == null) {
      throw Recusa.corpoInvalido("campo_ausente", "Field 'data' is missing.", eventoId);
    }
    if (campos.tipoDoData != JsonToken.START_OBJECT) {
      throw Recusa.corpoInvalido("campo_nao_objeto", "Field 'data' must be an object.", eventoId);
    }
    String recursoId =
        campos.exigir("data.id", campos.dataId, campos.tipoDoDataId, comprimentoMaximo, eventoId);
    return new EventoRecebido(eventoId, recursoId, tipo, texto);
  }

  private static String utf8(byte[] corpo) {
    CharsetDecoder decodificador =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return decodificador.decode(ByteBuffer.wrap(corpo)).toString();
    } catch (CharacterCodingException e) {
      throw Recusa.corpoInvalido("utf8_invalido", "The body is not valid UTF-8.");
    }
  }

  /**
   * Walks the object whose {@code START_OBJECT} was just read, checking every string and key, and
   * notes the top-level {@code id}, {@code type} and {@code data}, and {@code data.id}.
   */
  private static void percorrer(JsonParser parser, Campos campos, Medidor medidor) {
    dentroDoEnvelope(medidor.abrir(true));
    int profundidade = 1;
    String campoDoTopo = null;
    String campoDoData = null;
    boolean dentroDoData = false;
    JsonToken token;
    while ((token = parser.nextToken()) != null) {
      if (profundidade == 0) {
        throw Recusa.corpoInvalido("json_invalido", "The body has content after the JSON object.");
      }
      switch (token) {
        case PROPERTY_NAME -> {
          String nome = parser.currentName();
          verificarTexto(nome);
          dentroDoEnvelope(medidor.nome(nome));
          if (profundidade == 1) {
            campoDoTopo = nome;
          } else if (profundidade == 2 && dentroDoData) {
            campoDoData = nome;
          }
        }
        case START_OBJECT, START_ARRAY -> {
          dentroDoEnvelope(medidor.abrir(token == JsonToken.START_OBJECT));
          if (profundidade == 1) {
            campos.valorNoTopo(campoDoTopo, token, null);
            dentroDoData = "data".equals(campoDoTopo) && token == JsonToken.START_OBJECT;
          } else if (profundidade == 2 && dentroDoData) {
            campos.valorNoData(campoDoData, token, null);
          }
          profundidade++;
        }
        case END_OBJECT, END_ARRAY -> {
          dentroDoEnvelope(medidor.fechar());
          profundidade--;
          if (profundidade == 1) {
            dentroDoData = false;
          }
        }
        default -> {
          String texto = null;
          if (token == JsonToken.VALUE_STRING) {
            texto = parser.getString();
            verificarTexto(texto);
            dentroDoEnvelope(medidor.texto(texto));
          } else if (token.isNumeric()) {
            // The text as sent: jsonb keeps the number's written digits and scale, not a double.
            dentroDoEnvelope(medidor.numero(parser.getString()));
          } else {
            dentroDoEnvelope(medidor.literal(token.asString()));
          }
          if (profundidade == 1) {
            campos.valorNoTopo(campoDoTopo, token, texto);
          } else if (profundidade == 2 && dentroDoData) {
            campos.valorNoData(campoDoData, token, texto);
          }
        }
      }
    }
  }

  private static void dentroDoEnvelope(Violacao violacao) {
    if (violacao != null) {
      throw Recusa.corpoInvalido(violacao.motivo(), violacao.mensagem());
    }
  }

  /** What PostgreSQL's jsonb refuses in a string or a key, found before it gets there. */
  private static void verificarTexto(String texto) {
    for (int i = 0; i < texto.length(); i++) {
      char c = texto.charAt(i);
      if (c == '\u0000') {
        throw Recusa.corpoInvalido(
            "caractere_nulo", "A string contains \\u0000, which PostgreSQL cannot store.");
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < texto.length()
          && Character.isLowSurrogate(texto.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw Recusa.corpoInvalido(
            "surrogate_isolado", "A string contains an unpaired UTF-16 surrogate escape.");
      }
    }
  }

  private static String descrever(JacksonException e) {
    String mensagem = e.getOriginalMessage();
    var local = e.getLocation();
    if (local == null || local.getLineNr() < 1) {
      return mensagem;
    }
    return mensagem + " (line " + local.getLineNr() + ", column " + local.getColumnNr() + ")";
  }

  /** The three fields the row needs, and the JSON type each one came as. */
  private static final class Campos {
    String id;
    String type;
    String dataId;
    JsonToken tipoDoId;
    JsonToken tipoDoType;
    JsonToken tipoDoData;
    JsonToken tipoDoDataId;

    void valorNoTopo(String campo, JsonToken token, String texto) {
      if (campo == null) {
        return;
      }
      switch (campo) {
        case "id" -> {
          tipoDoId = token;
          id = texto;
        }
        case "type" -> {
          tipoDoType = token;
          type = texto;
        }
        case "data" -> tipoDoData = token;
        default -> {}
      }
    }

    /** The id, when one was read and is fit to find the body again by. */
    String idLegivel() {
      if (id == null || id.isBlank() || id.length() > 200) {
        return null;
      }
      for (int i = 0; i < id.length(); i++) {
        if (id.charAt(i) == '\u0000' || Character.isSurrogate(id.charAt(i))) {
          return null;
        }
      }
      return id;
    }

    void valorNoData(String campo, JsonToken token, String texto) {
      if ("id".equals(campo)) {
        tipoDoDataId = token;
        dataId = texto;
      }
    }

    String exigir(String nome, String valor, JsonToken tipo, int maximo, String eventoId) {
      if (tipo == null) {
        throw Recusa.corpoInvalido("campo_ausente", "Field '" + nome + "' is missing.", eventoId);
      }
      if (tipo != JsonToken.VALUE_STRING) {
        throw Recusa.corpoInvalido(
            "campo_nao_texto", "Field '" + nome + "' must be a string.", eventoId);
      }
      if (valor.isBlank()) {
        throw Recusa.corpoInvalido("campo_vazio", "Field '" + nome + "' is empty.", eventoId);
      }
      if (valor.length() > maximo) {
        throw Recusa.corpoInvalido(
            "campo_longo_demais",
            "Field '" + nome + "' is longer than " + maximo + " characters.",
            // An absurd id is no use to find the body again.
            "id".equals(nome) ? null : eventoId);
      }
      return valor;
    }
  }

  /**
   * The envelope's limits as the parser's own constraints, so that the parser stops at them instead
   * of buffering an absurd token or nesting first (Jackson's defaults: depth 500 (1000 in 3.0),
   * numbers of 1,000 characters, keys of 50,000). Each check throws a {@link ForaDoEnvelope}
   * carrying the envelope's violation, so a body refused by the parser gets the same {@code motivo}
   * as one refused by the {@link Medidor}; Jackson's exceptions carry nothing else to tell the
   * limits apart but their message text.
   *
   * <p>The parser counts the characters of what it reads here (a {@code String}), as the envelope
   * does. It measures an integer without its sign, so it is never stricter than the measurer.
   */
  static final class RestricoesDoEnvelope extends StreamReadConstraints {

    RestricoesDoEnvelope() {
      super(
          EnvelopeDeEntrada.PROFUNDIDADE,
          // The receptor reads at most BYTES_DO_CORPO bytes, so no more characters than that.
          EnvelopeDeEntrada.BYTES_DO_CORPO,
          // Tokens are bounded by the body's size; no limit of their own.
          StreamReadConstraints.DEFAULT_MAX_TOKEN_COUNT,
          EnvelopeDeEntrada.CARACTERES_DE_NUMERO,
          EnvelopeDeEntrada.CARACTERES_DE_TEXTO,
          EnvelopeDeEntrada.CARACTERES_DE_NOME);
    }

    @Override
    public void validateNestingDepth(int profundidade) throws StreamConstraintsException {
      if (profundidade > _maxNestingDepth) {
        throw new ForaDoEnvelope(Violacao.PROFUNDIDADE_EXCESSIVA);
      }
    }

    @Override
    public void validateIntegerLength(int digitos) throws StreamConstraintsException {
      if (digitos > _maxNumLen) {
        throw new ForaDoEnvelope(Violacao.NUMERO_LONGO_DEMAIS);
      }
    }

    @Override
    public void validateFPLength(int caracteres) throws StreamConstraintsException {
      if (caracteres > _maxNumLen) {
        throw new ForaDoEnvelope(Violacao.NUMERO_LONGO_DEMAIS);
      }
    }

    @Override
    public void validateStringLength(int caracteres) throws StreamConstraintsException {
      if (caracteres > _maxStringLen) {
        throw new ForaDoEnvelope(Violacao.TEXTO_LONGO_DEMAIS);
      }
    }

    @Override
    public void validateNameLength(int caracteres) throws StreamConstraintsException {
      if (caracteres > _maxNameLen) {
        throw new ForaDoEnvelope(Violacao.NOME_LONGO_DEMAIS);
      }
    }
  }

  /** The parser stopped at one of the envelope's limits. */
  static final class ForaDoEnvelope extends StreamConstraintsException {
    private final transient Violacao violacao;

    ForaDoEnvelope(Violacao violacao) {
      super(violacao.mensagem());
      this.violacao = violacao;
    }

    Violacao violacao() {
      return violacao;
    }
  }
}
