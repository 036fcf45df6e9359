package pedidos.dominio;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A literal port of the seed's {@code decidir} and {@code aplicarFato} on a mutable row, written
 * apart from the production code so the tests compare two independent readings of the seed.
 */
final class Semente {

  private String status;
  private Long versaoOrigem;
  private Long total;
  private String email;
  private final Map<String, Resultado> resultados = new HashMap<>();
  private final Set<String> aplicados = new HashSet<>();

  /** The definition of the canonical state: the seed's rules over the facts in version order. */
  static Semente emOrdemDeVersao(List<Fato> fatos) {
    List<Fato> ordenados = new ArrayList<>(fatos);
    ordenados.sort(Fato.ORDEM_CANONICA);
    return naChegada(ordenados);
  }

  /** The seed as it was: each fact applied to whatever state it finds, in arrival order. */
  static Semente naChegada(List<Fato> chegadas) {
    Semente semente = new Semente();
    for (Fato fato : chegadas) {
      if (semente.aplicados.add(fato.eventoId())) {
        semente.aplicar(fato);
      }
    }
    return semente;
  }

  private void aplicar(Fato fato) {
    String motivo = null;
    if (status != null) {
      if (fato.versao() <= versaoOrigem) {
        motivo = "evento_antigo";
      } else if (status.equals("cancelado") && !fato.status().codigo().equals("reembolsado")) {
        motivo = "regressao_de_terminal";
      } else if (status.equals("reembolsado")) {
        motivo = "regressao_de_terminal";
      }
    }
    if (motivo != null) {
      total = total != null ? total : fato.totalCentavos();
      email = email != null ? email : fato.clienteEmail();
      resultados.put(
          fato.eventoId(),
          motivo.equals("evento_antigo")
              ? Resultado.EVENTO_ANTIGO
              : Resultado.REGRESSAO_DE_TERMINAL);
      return;
    }
    status = fato.status().codigo();
    versaoOrigem = fato.versao();
    total = fato.totalCentavos() != null ? fato.totalCentavos() : total;
    email = fato.clienteEmail() != null ? fato.clienteEmail() : email;
    resultados.put(fato.eventoId(), Resultado.APLICADO);
  }

  EstadoDoPedido estado() {
    return status == null
        ? null
        : new EstadoDoPedido(Status.doCodigo(status), versaoOrigem, total, email);
  }

  Map<String, Resultado> resultados() {
    return resultados;
  }
}
