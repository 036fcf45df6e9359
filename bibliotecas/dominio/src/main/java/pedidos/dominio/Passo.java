package pedidos.dominio;

import java.util.List;

/**
 * The seed's {@code aplicarFato} without the database: one fact applied to one state.
 *
 * @param efeitos the effects of the transition this step makes
 */
public record Passo(EstadoDoPedido estado, Resultado resultado, List<Efeito> efeitos) {

  /**
   * @param atual the state in force, or {@code null} when the order has no state yet
   */
  public static Passo aplicar(EstadoDoPedido atual, Fato fato) {
    Decisao decisao = Decisao.decidir(atual, fato.status(), fato.versao());
    if (decisao instanceof Decisao.Ignorar ignorar) {
      // A fact that moves nothing still fills the fields that the facts in force did not carry.
      var completado =
          new EstadoDoPedido(
              atual.status(),
              atual.versaoOrigem(),
              primeiroNaoNulo(atual.totalCentavos(), fato.totalCentavos()),
              primeiroNaoNulo(atual.clienteEmail(), fato.clienteEmail()));
      return new Passo(completado, ignorar.motivo(), List.of());
    }
    Status de = ((Decisao.Aplicar) decisao).de();
    var aplicado =
        new EstadoDoPedido(
            fato.status(),
            fato.versao(),
            primeiroNaoNulo(fato.totalCentavos(), atual == null ? null : atual.totalCentavos()),
            primeiroNaoNulo(fato.clienteEmail(), atual == null ? null : atual.clienteEmail()));
    return new Passo(aplicado, Resultado.APLICADO, Efeito.daTransicao(de, fato.status()));
  }

  private static <T> T primeiroNaoNulo(T primeiro, T segundo) {
    return primeiro != null ? primeiro : segundo;
  }
}
