package pedidos.aplicador.painel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import pedidos.aplicador.painel.ExplicacaoDoPedido.EfeitoVisto;
import pedidos.aplicador.painel.ExplicacaoDoPedido.EventoVisto;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.ExplicacaoDaDobra;
import pedidos.dominio.ExplicacaoDaDobra.PassoExplicado;
import pedidos.dominio.Resultado;

/**
 * The first lines of an order's page: the answers to what ops ask first ("why is this order
 * canceled?", "was picking released?"), in sentences built from the fold and the outbox.
 */
final class ResumoDoPedido {

  static List<String> resumir(
      ExplicacaoDaDobra dobra,
      EstadoDoPedido armazenado,
      List<EventoVisto> eventos,
      List<EfeitoVisto> efeitos) {
    Map<String, EventoVisto> porId =
        eventos.stream().collect(Collectors.toMap(EventoVisto::eventoId, Function.identity()));
    List<String> resumo = new ArrayList<>();
    resumo.add(porQue(dobra, porId));
    resumo.add(conferencia(dobra, armazenado, eventos));
    resumo.addAll(separacao(dobra, efeitos));
    return resumo;
  }

  private static String porQue(ExplicacaoDaDobra dobra, Map<String, EventoVisto> porId) {
    PassoExplicado emVigor = null;
    List<PassoExplicado> depois = new ArrayList<>();
    for (PassoExplicado passo : dobra.passos()) {
      if (passo.repetido()) {
        continue;
      }
      if (passo.resultado() == Resultado.APLICADO) {
        emVigor = passo;
        depois.clear();
      } else {
        depois.add(passo);
      }
    }
    if (emVigor == null) {
      return "No fact of this order has been applied yet: it has no state.";
    }
    StringBuilder frase =
        new StringBuilder("The order is ")
            .append(emVigor.depois().status().codigo())
            .append(" because of event ")
            .append(descrever(emVigor, porId))
            .append(": ")
            .append(emVigor.porque())
            .append('.');
    if (!depois.isEmpty()) {
      frase.append(" Facts after it that moved nothing: ");
      frase.append(
          depois.stream()
              .map(passo -> descrever(passo, porId) + ", " + passo.porque())
              .collect(Collectors.joining("; ")));
      frase.append('.');
    }
    return frase.toString();
  }

  private static String descrever(PassoExplicado passo, Map<String, EventoVisto> porId) {
    EventoVisto visto = porId.get(passo.fato().eventoId());
    String origem =
        visto == null
            ? ""
            : " (" + visto.origem() + " " + visto.tipo() + ", received " + visto.recebidoEm() + ")";
    return passo.fato().eventoId()
        + origem
        + " "
        + passo.fato().status().codigo()
        + " version "
        + passo.fato().versao();
  }

  private static String conferencia(
      ExplicacaoDaDobra dobra, EstadoDoPedido armazenado, List<EventoVisto> eventos) {
    long pendentes = eventos.stream().filter(evento -> evento.aplicadoEm() == null).count();
    String pendencia =
        pendentes == 0
            ? ""
            : " " + pendentes + " event(s) are still pending apply and are not part of either yet.";
    if (dobra.confereCom(armazenado)) {
      return "The stored state equals the fold of its applied facts." + pendencia;
    }
    return "The stored state ("
        + descrever(armazenado)
        + ") differs from the fold of its applied facts ("
        + descrever(dobra.estado())
        + "): a restore or a failed apply left it behind; re-deriving the order repairs it."
        + pendencia;
  }

  private static String descrever(EstadoDoPedido estado) {
    return estado == null
        ? "none"
        : estado.status().codigo() + " at version " + estado.versaoOrigem();
  }

  private static List<String> separacao(ExplicacaoDaDobra dobra, List<EfeitoVisto> efeitos) {
    List<String> frases = new ArrayList<>();
    EfeitoVisto liberar = achar(efeitos, Efeito.LIBERAR_SEPARACAO);
    EfeitoVisto interromper = achar(efeitos, Efeito.INTERROMPER_SEPARACAO);
    if (liberar != null) {
      frases.add("Picking was released: " + contar(liberar));
    } else {
      boolean naDobra =
          dobra.passos().stream()
              .anyMatch(passo -> passo.efeitos().contains(Efeito.LIBERAR_SEPARACAO));
      frases.add(
          naDobra
              ? "Picking was never released: the fold passes through pago, but the stored order"
                  + " never did (its cancellation was stored before its payment, and a payment"
                  + " applied after a cancellation releases nothing), or retention deleted the"
                  + " sent release of an ended order."
              : "Picking was never released: the order was never pago.");
    }
    if (interromper != null) {
      frases.add("Picking was then stopped: " + contar(interromper));
    }
    EfeitoVisto reembolso = achar(efeitos, Efeito.NOTIFICAR_REEMBOLSO);
    if (reembolso != null) {
      frases.add("The refund was notified: " + contar(reembolso));
    }
    return frases;
  }

  private static String contar(EfeitoVisto efeito) {
    return efeito.efeito()
        + " born "
        + efeito.criadoEm()
        + (efeito.enviadoEm() == null
            ? ", NOT published yet."
            : ", published to the picking system " + efeito.enviadoEm() + ".");
  }

  private static EfeitoVisto achar(List<EfeitoVisto> efeitos, Efeito efeito) {
    return efeitos.stream()
        .filter(visto -> visto.efeito().equals(efeito.codigo()))
        .findFirst()
        .orElse(null);
  }

  private ResumoDoPedido() {}
}
