package pedidos.dominio;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The verdicts of the inbox ({@code webhook_eventos.resultado}) in sentences an operator reads:
 * what the code means, and for one step of a fold, why that fact got it.
 */
public final class FrasesDosVeredictos {

  /** What a verdict means, whatever the fact. */
  public static String de(Resultado resultado) {
    return switch (resultado) {
      case APLICADO -> "Applied: the fact moved the order in the canonical history.";
      case EVENTO_ANTIGO ->
          "Old: not newer than the fact in force, so it changed no status (it may have filled a"
              + " missing total or email).";
      case REGRESSAO_DE_TERMINAL ->
          "Terminal regression: a newer fact tried to move a canceled or refunded order to a status"
              + " the rules do not allow after it, so it was ignored. The provider sent"
              + " contradictory facts; the order keeps its terminal status.";
      case TIPO_IGNORADO ->
          "Ignored type: the event says nothing about an order's status; stored and settled.";
      case FATO_INVALIDO ->
          "Invalid fact: it can never be applied (its instant cannot be read, its status is"
              + " unknown, a field has the wrong type); the reason says which.";
      case FALHA_DE_APLICACAO ->
          "Apply failure: applying it kept failing for an unknown reason (a bug, a constraint);"
              + " it was settled so that it stops being retried. Not a fact of the order until a"
              + " forced re-derive applies it.";
    };
  }

  /** The sentence of a verdict stored as {@code codigo}; the code itself when unknown. */
  public static String doCodigo(String codigo) {
    if (codigo == null) {
      return "Pending: not applied yet.";
    }
    for (Resultado resultado : Resultado.values()) {
      if (resultado.codigo().equals(codigo)) {
        return de(resultado);
      }
    }
    return codigo;
  }

  /**
   * Why one fact got its verdict in a fold.
   *
   * @param antes the state in force before it, or {@code null}
   * @param passo what {@link Passo#aplicar} made of it
   */
  static String doPasso(EstadoDoPedido antes, Fato fato, Passo passo) {
    String efeitos =
        passo.efeitos().isEmpty()
            ? ""
            : "; effects: "
                + passo.efeitos().stream().map(Efeito::codigo).collect(Collectors.joining(", "));
    switch (passo.resultado()) {
      case APLICADO:
        if (antes == null) {
          return "first fact of the order: it is " + fato.status().codigo() + efeitos;
        }
        return "version "
            + fato.versao()
            + " is newer than "
            + antes.versaoOrigem()
            + ": moves the order from "
            + antes.status().codigo()
            + " to "
            + fato.status().codigo()
            + efeitos;
      case EVENTO_ANTIGO:
        return "old: version "
            + fato.versao()
            + " is not newer than version "
            + antes.versaoOrigem()
            + " of the fact in force ("
            + antes.status().codigo()
            + "), so "
            + fato.status().codigo()
            + " changes no status"
            + preenchidos(antes, passo.estado());
      case REGRESSAO_DE_TERMINAL:
        return "terminal regression: the order is "
            + antes.status().codigo()
            + ", a terminal status "
            + quemPodeSeguir(antes.status())
            + "; "
            + fato.status().codigo()
            + " (version "
            + fato.versao()
            + ") would leave it, so it is ignored"
            + preenchidos(antes, passo.estado());
      default:
        return de(passo.resultado());
    }
  }

  private static String quemPodeSeguir(Status terminal) {
    List<String> destinos =
        java.util.Arrays.stream(Status.values())
            .filter(terminal::permiteSair)
            .map(Status::codigo)
            .toList();
    return destinos.isEmpty()
        ? "that nothing may follow"
        : "that only " + String.join(" or ", destinos) + " may follow";
  }

  private static String preenchidos(EstadoDoPedido antes, EstadoDoPedido depois) {
    boolean total = antes.totalCentavos() == null && depois.totalCentavos() != null;
    boolean email = antes.clienteEmail() == null && depois.clienteEmail() != null;
    if (total && email) {
      return "; it filled the missing total and email";
    }
    if (total) {
      return "; it filled the missing total";
    }
    return email ? "; it filled the missing email" : "";
  }

  private FrasesDosVeredictos() {}
}
