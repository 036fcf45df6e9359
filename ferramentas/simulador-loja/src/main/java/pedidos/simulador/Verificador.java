package pedidos.simulador;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import pedidos.contrato.RegistroDeEfeito;
import pedidos.dominio.DobraCanonica;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Fato;
import pedidos.dominio.Status;
import pedidos.simulador.FotoDoBanco.LinhaDoInbox;
import pedidos.simulador.FotoDoBanco.LinhaDoOutbox;

/**
 * Checks the whole system against the store's truth, until it converges or the wait runs out.
 *
 * <p>The expected state of an order is the domain's canonical fold over what the system was told:
 * the webhook events it acknowledged (a 2xx means stored), the unacknowledged ones its inbox holds
 * anyway (the answer was lost, not the event), and every view the orders API served (the applier
 * stores each as a fact) but those served only to a round that died before storing them (see {@code
 * superada}). The rules are the domain's; nothing here re-implements them.
 */
final class Verificador {

  private final List<PedidoGerado> pedidos;
  private final List<String> pedidoIds;
  private final Map<String, EventoDaLoja> eventos = new HashMap<>();
  private final RegistroDeEntregas entregas;
  private final VistasServidas vistas;
  private final SistemaDeSeparacao separacao;
  private final BancoDoSistema banco;
  private final boolean exigirVerdadeFinal;
  private final Duration intervalo;

  /**
   * @param separacao {@code null} when the picking side is not checked
   * @param exigirVerdadeFinal whether every order's final truth must have reached the system (by
   *     webhook or through reconciliation); off when the run has no reconciliation to recover lost
   *     events
   */
  Verificador(
      List<PedidoGerado> pedidos,
      RegistroDeEntregas entregas,
      VistasServidas vistas,
      SistemaDeSeparacao separacao,
      BancoDoSistema banco,
      boolean exigirVerdadeFinal,
      Duration intervalo) {
    this.pedidos = List.copyOf(pedidos);
    this.pedidoIds = pedidos.stream().map(PedidoGerado::id).toList();
    for (PedidoGerado pedido : pedidos) {
      for (EventoDaLoja evento : pedido.eventos()) {
        eventos.put(evento.eventoId(), evento);
      }
    }
    this.entregas = entregas;
    this.vistas = vistas;
    this.separacao = separacao;
    this.banco = banco;
    this.exigirVerdadeFinal = exigirVerdadeFinal;
    this.intervalo = intervalo;
  }

  /**
   * Compares until there is nothing left to report or {@code espera} has passed, and reports the
   * last comparison.
   *
   * @param aCadaRodada told the number of divergences after each comparison
   */
  Relatorio verificar(ResumoDaEntrega entrega, Duration espera, IntConsumer aCadaRodada)
      throws InterruptedException {
    long inicio = System.nanoTime();
    long limite = inicio + espera.toNanos();
    while (true) {
      FotoDoBanco foto = null;
      List<String> divergencias;
      try {
        foto = banco.fotografar(pedidoIds);
        divergencias = comparar(foto);
      } catch (SQLException e) {
        divergencias = List.of("database unreachable: " + e.getMessage());
      }
      aCadaRodada.accept(divergencias.size());
      if (divergencias.isEmpty() || System.nanoTime() >= limite) {
        return relatorio(entrega, foto, divergencias, Duration.ofNanos(System.nanoTime() - inicio));
      }
      Thread.sleep(intervalo.toMillis());
    }
  }

  /**
   * Whether a view the API served was never stored because a later view of the same order was, read
   * by a round that started at or before it: an applier that dies between reading a page and
   * committing it keeps its cursor, and its next round reads every order from there again, as it is
   * then. A view served only to the dead round was never a fact of the system, so it is not part of
   * the expected state either. A view the cursor moved past without storing it is not excused:
   * every later round starts after it.
   */
  private boolean superada(
      VistaDoPedido vista, List<VistaDoPedido> doMesmoPedido, Set<String> noInbox) {
    for (VistaDoPedido outra : doMesmoPedido) {
      if (outra.instante().isAfter(vista.instante())
          && noInbox.contains(outra.eventoId())
          && vistas.servidaDesde(outra.eventoId(), vista.instante())) {
        return true;
      }
    }
    return false;
  }

  /** Everything that differs from what the truth and the deliveries say; empty when converged. */
  List<String> comparar(FotoDoBanco foto) {
    // Read after the snapshot: a view served in between is not stored in it yet, which only
    // delays convergence by one round (the final views are served again, under the same ids).
    List<VistaDoPedido> servidas = vistas.todas();
    Map<String, RegistroDeEfeito> separados = separacao == null ? null : separacao.efeitos();
    Set<String> confirmados = entregas.confirmados();
    Set<String> incertos = entregas.incertos();

    Map<String, List<VistaDoPedido>> vistasPorPedido = new HashMap<>();
    Set<String> idsDasVistas = new HashSet<>();
    for (VistaDoPedido vista : servidas) {
      vistasPorPedido.computeIfAbsent(vista.pedidoId(), id -> new ArrayList<>()).add(vista);
      idsDasVistas.add(vista.eventoId());
    }
    Map<String, LinhaDoInbox> inbox = new HashMap<>();
    Set<String> noInbox = inbox.keySet();
    List<String> divergencias = new ArrayList<>();
    List<String> naoAplicados = new ArrayList<>();
    for (LinhaDoInbox linha : foto.inbox()) {
      inbox.put(linha.eventoId(), linha);
      if (!linha.aplicado()) {
        naoAplicados.add(linha.eventoId());
      }
      boolean nossoEvento = eventos.containsKey(linha.eventoId());
      if (!nossoEvento && !idsDasVistas.contains(linha.eventoId())) {
        divergencias.add("inbox holds a fact the store never produced: " + linha.eventoId());
      } else if (nossoEvento
          && !confirmados.contains(linha.eventoId())
          && !incertos.contains(linha.eventoId())) {
        divergencias.add("inbox holds an event never sent: " + linha.eventoId());
      }
    }
    if (!naoAplicados.isEmpty()) {
      divergencias.add(
          "facts not applied yet: " + naoAplicados.size() + ", for example " + naoAplicados.get(0));
    }
    Map<String, List<LinhaDoOutbox>> outboxPorPedido = new HashMap<>();
    for (LinhaDoOutbox linha : foto.outbox()) {
      outboxPorPedido.computeIfAbsent(linha.pedidoId(), id -> new ArrayList<>()).add(linha);
    }

    for (PedidoGerado pedido : pedidos) {
      List<Fato> fatos = new ArrayList<>();
      for (EventoDaLoja evento : pedido.eventos()) {
        String id = evento.eventoId();
        if (confirmados.contains(id)) {
          fatos.add(evento.fato());
          if (!noInbox.contains(id)) {
            divergencias.add("event acknowledged with a 2xx, missing from the inbox: " + id);
          }
        } else if (incertos.contains(id) && noInbox.contains(id)) {
          fatos.add(evento.fato());
        }
      }
      List<VistaDoPedido> vistasDoPedido = vistasPorPedido.getOrDefault(pedido.id(), List.of());
      for (VistaDoPedido vista : vistasDoPedido) {
        if (noInbox.contains(vista.eventoId())) {
          fatos.add(vista.fato());
        } else if (!superada(vista, vistasDoPedido, noInbox)) {
          fatos.add(vista.fato());
          divergencias.add("API view served but not stored: " + vista.eventoId());
        }
      }
      DobraCanonica dobra = fatos.isEmpty() ? null : DobraCanonica.dobrar(fatos);
      EstadoDoPedido esperado = dobra == null ? null : dobra.estado();
      EstadoDoPedido observado = foto.pedidos().get(pedido.id());
      if (!Objects.equals(esperado, observado)) {
        divergencias.add(
            "order %s: canonical state %s, in the database %s"
                .formatted(pedido.id(), texto(esperado), texto(observado)));
      }
      if (dobra != null) {
        veredictos(dobra, inbox, divergencias);
      }
      if (exigirVerdadeFinal) {
        verdadeFinal(pedido, fatos, divergencias);
      }
      efeitos(
          pedido.id(),
          fatos,
          Objects.equals(esperado, observado) ? esperado : null,
          outboxPorPedido.getOrDefault(pedido.id(), List.of()),
          separados,
          divergencias);
    }
    if (separados != null) {
      Set<String> chavesDoOutbox = new HashSet<>();
      foto.outbox().forEach(linha -> chavesDoOutbox.add(linha.chave()));
      for (String chave : new TreeMap<>(separados).keySet()) {
        if (!chavesDoOutbox.contains(chave)) {
          divergencias.add(
              "the picking system received an effect the outbox does not have: " + chave);
        }
      }
    }
    return divergencias;
  }

  /**
   * A late fact can change the verdict on facts applied before it; the inbox must say what each
   * fact is in the canonical history, so that ops querying anomalies get the truth.
   */
  private static void veredictos(
      DobraCanonica dobra, Map<String, LinhaDoInbox> inbox, List<String> divergencias) {
    dobra.veredictos().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            veredicto -> {
              LinhaDoInbox linha = inbox.get(veredicto.getKey());
              if (linha != null
                  && linha.aplicado()
                  && !veredicto.getValue().codigo().equals(linha.resultado())) {
                divergencias.add(
                    "fact %s: canonical result %s, in the inbox %s"
                        .formatted(
                            veredicto.getKey(), veredicto.getValue().codigo(), linha.resultado()));
              }
            });
  }

  /** The order's last event must be known, delivered or read from the API: nothing stays lost. */
  private static void verdadeFinal(
      PedidoGerado pedido, List<Fato> fatos, List<String> divergencias) {
    EventoDaLoja ultimo = pedido.ultimo();
    String daApi = VistaDoPedido.de(pedido, ultimo).eventoId();
    boolean conhecido =
        fatos.stream()
            .anyMatch(f -> f.eventoId().equals(ultimo.eventoId()) || f.eventoId().equals(daApi));
    if (!conhecido) {
      divergencias.add(
          "order %s: the last fact (%s, %s) never reached the system, neither by webhook nor through the API"
              .formatted(pedido.id(), ultimo.status().codigo(), ultimo.eventoId()));
    }
  }

  /**
   * The effect invariants. Effects follow the transitions the system actually observed, which
   * depend on arrival order, so only what holds for every order of arrival is checked.
   *
   * @param confirmado the canonical state when the stored one equals it, else {@code null}
   */
  private static void efeitos(
      String pedidoId,
      Collection<Fato> fatos,
      EstadoDoPedido confirmado,
      List<LinhaDoOutbox> outbox,
      Map<String, RegistroDeEfeito> separados,
      List<String> divergencias) {
    Set<Status> statusDosFatos = EnumSet.noneOf(Status.class);
    fatos.forEach(fato -> statusDosFatos.add(fato.status()));
    Set<Efeito> efeitos = EnumSet.noneOf(Efeito.class);
    for (LinhaDoOutbox linha : outbox) {
      Efeito efeito = efeito(linha.efeito());
      if (efeito == null) {
        divergencias.add("unknown effect in the outbox: " + linha.chave());
      } else {
        efeitos.add(efeito);
      }
      if (!linha.enviado()) {
        divergencias.add("effect without enviado_em: " + linha.chave());
      }
      if (separados != null && !separados.containsKey(linha.chave())) {
        divergencias.add("outbox effect that never reached the picking system: " + linha.chave());
      }
    }
    String prefixo = "order " + pedidoId + ": ";
    if (efeitos.contains(Efeito.INTERROMPER_SEPARACAO)
        && !efeitos.contains(Efeito.LIBERAR_SEPARACAO)) {
      divergencias.add(prefixo + "interromper_separacao without liberar_separacao");
    }
    if (efeitos.contains(Efeito.LIBERAR_SEPARACAO) && !statusDosFatos.contains(Status.PAGO)) {
      divergencias.add(prefixo + "liberar_separacao without any pago fact");
    }
    if (efeitos.contains(Efeito.INTERROMPER_SEPARACAO)
        && !statusDosFatos.contains(Status.CANCELADO)) {
      divergencias.add(prefixo + "interromper_separacao without any cancelado fact");
    }
    if (efeitos.contains(Efeito.NOTIFICAR_REEMBOLSO)
        && !statusDosFatos.contains(Status.REEMBOLSADO)) {
      divergencias.add(prefixo + "notificar_reembolso without any reembolsado fact");
    }
    // The stored status was reached by a transition into it, which always has these effects.
    if (confirmado != null
        && confirmado.status() == Status.PAGO
        && !efeitos.contains(Efeito.LIBERAR_SEPARACAO)) {
      divergencias.add(prefixo + "pago without liberar_separacao");
    }
    if (confirmado != null
        && confirmado.status() == Status.REEMBOLSADO
        && !efeitos.contains(Efeito.NOTIFICAR_REEMBOLSO)) {
      divergencias.add(prefixo + "reembolsado without notificar_reembolso");
    }
  }

  private static Efeito efeito(String codigo) {
    for (Efeito efeito : Efeito.values()) {
      if (efeito.codigo().equals(codigo)) {
        return efeito;
      }
    }
    return null;
  }

  private static String texto(EstadoDoPedido estado) {
    if (estado == null) {
      return "(no row)";
    }
    return "%s v%d total=%s email=%s"
        .formatted(
            estado.status().codigo(),
            estado.versaoOrigem(),
            estado.totalCentavos(),
            estado.clienteEmail());
  }

  private Relatorio relatorio(
      ResumoDaEntrega entrega, FotoDoBanco foto, List<String> divergencias, Duration espera) {
    Map<String, Long> resultados = new TreeMap<>();
    Map<String, Long> efeitos = new TreeMap<>();
    Set<String> comFatoDaApi = new HashSet<>();
    Set<String> reconciliados = new HashSet<>();
    if (foto != null) {
      for (LinhaDoInbox linha : foto.inbox()) {
        resultados.merge(linha.resultado() == null ? "pendente" : linha.resultado(), 1L, Long::sum);
        if (linha.eventoId().startsWith("api:")) {
          comFatoDaApi.add(linha.pedidoId());
          if ("aplicado".equals(linha.resultado())) {
            reconciliados.add(linha.pedidoId());
          }
        }
      }
      foto.outbox().forEach(linha -> efeitos.merge(linha.efeito(), 1L, Long::sum));
    }
    var separados =
        separacao == null
            ? null
            : new Relatorio.Separacao(
                separacao.recebidas(),
                separacao.efeitos().size(),
                separacao.duplicadas(),
                separacao.semCabecalho(),
                separacao.ilegiveis());
    return new Relatorio(
        pedidos.size(),
        entrega,
        vistas.todas().size(),
        vistas.paginas(),
        comFatoDaApi.size(),
        reconciliados.size(),
        resultados,
        efeitos,
        separados,
        divergencias,
        espera.toMillis());
  }
}
