package pedidos.dominio;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What a stored event or an order read from the API means for the order: a {@link Fato} to apply,
 * or {@link SemFato}, a named reason why there is nothing to apply. Never an exception: an event
 * that cannot be applied today cannot be applied tomorrow either, so it is settled at once.
 */
public sealed interface Interpretacao permits Fato, Interpretacao.SemFato {

  /**
   * An event that moves nothing, settled with its result.
   *
   * @param resultado {@link Resultado#TIPO_IGNORADO} or {@link Resultado#FATO_INVALIDO}
   * @param motivo what ops need to know about it
   */
  record SemFato(Resultado resultado, String motivo) implements Interpretacao {
    public SemFato {
      Objects.requireNonNull(resultado, "resultado");
      if (resultado != Resultado.TIPO_IGNORADO && resultado != Resultado.FATO_INVALIDO) {
        throw new IllegalArgumentException("not a result without a fact: " + resultado);
      }
    }

    static SemFato tipoIgnorado(String tipo) {
      return new SemFato(Resultado.TIPO_IGNORADO, "tipo sem status: " + tipo);
    }

    public static SemFato invalido(String motivo) {
      return new SemFato(Resultado.FATO_INVALIDO, motivo);
    }
  }

  /**
   * A webhook event, as stored in the inbox.
   *
   * @param sequence the payload's {@code sequence} when it is a JSON number, else {@code null}
   */
  static Interpretacao doEvento(
      String eventoId,
      String tipo,
      BigDecimal sequence,
      String occurredAt,
      Long totalCentavos,
      String clienteEmail) {
    var status = Status.doTipoDeEvento(tipo);
    if (status.isEmpty()) {
      return SemFato.tipoIgnorado(tipo);
    }
    return fato(eventoId, status.get(), sequence, occurredAt, totalCentavos, clienteEmail);
  }

  /**
   * The inbox key of an order read from the API: the same order at the same version and status is
   * the same fact however often it is read, so reading it again stores nothing new. {@code null}
   * for a status that means nothing to us.
   */
  static String eventoIdDaApi(
      String pedidoId, String statusDaApi, BigDecimal sequence, String updatedAt) {
    if (Status.daApi(statusDaApi).isEmpty()) {
      return null;
    }
    String versao =
        VersaoDoFato.inteiroSeguro(sequence) ? "s" + sequence.toBigIntegerExact() : updatedAt;
    return "api:" + pedidoId + ":" + versao + ":" + statusDaApi;
  }

  /** The seed's {@code fatoDaApi}: the same kind of fact from an order read from the API. */
  static Interpretacao daApi(
      String eventoId,
      String statusDaApi,
      BigDecimal sequence,
      String updatedAt,
      Long totalCentavos,
      String clienteEmail) {
    var status = Status.daApi(statusDaApi);
    if (status.isEmpty()) {
      return SemFato.invalido("status desconhecido: " + statusDaApi);
    }
    return fato(eventoId, status.get(), sequence, updatedAt, totalCentavos, clienteEmail);
  }

  private static Interpretacao fato(
      String eventoId,
      Status status,
      BigDecimal sequence,
      String instante,
      Long totalCentavos,
      String clienteEmail) {
    VersaoDoFato versao = VersaoDoFato.de(sequence, instante, status);
    if (versao instanceof VersaoDoFato.InstanteInvalido invalido) {
      return SemFato.invalido(invalido.motivo());
    }
    long valor = ((VersaoDoFato.Valida) versao).valor();
    return new Fato(eventoId, status, valor, totalCentavos, clienteEmail);
  }
}
