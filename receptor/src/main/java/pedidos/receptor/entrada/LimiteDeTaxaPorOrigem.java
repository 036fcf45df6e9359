package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.gravacao.ObservadorDoReceptor;

/**
 * A token bucket per source address on the webhook path, checked before the body is read or the
 * signature computed, so a flood from one address costs a map lookup per request. Off unless {@code
 * receptor.limite-por-origem.requisicoes-por-segundo} is set. Behind a proxy the source is the
 * proxy unless {@code server.forward-headers-strategy} is set to trust its headers.
 */
@Component
final class LimiteDeTaxaPorOrigem {

  private final ReceptorProperties.LimitePorOrigem limite;
  private final Clock relogio;
  private final ObservadorDoReceptor observador;
  private final Map<String, Balde> baldes = new ConcurrentHashMap<>();

  LimiteDeTaxaPorOrigem(
      ReceptorProperties propriedades, Clock relogio, ObservadorDoReceptor observador) {
    this.limite = propriedades.limitePorOrigem();
    this.relogio = relogio;
    this.observador = observador;
  }

  /** Takes a token from the request's address, or refuses it with 429 and its Retry-After. */
  void verificar(HttpServletRequest requisicao) {
    if (!limite.ligado()) {
      return;
    }
    long agora = relogio.millis();
    if (baldes.size() >= limite.origensMaximas()) {
      esquecerOciosos(agora);
    }
    Balde balde =
        baldes.computeIfAbsent(
            requisicao.getRemoteAddr(), origem -> new Balde(agora, limite.rajada()));
    long espera = balde.retirar(agora, limite);
    if (espera > 0) {
      observador.taxaExcedida();
      throw Recusa.taxaExcedida(Math.max(1, (espera + 999) / 1000));
    }
  }

  /**
   * A bucket that has refilled is the same as no bucket: forgetting it changes nothing. If an
   * attack spreads over more addresses than the map may hold, the oldest are forgotten anyway
   * (those addresses get a fresh burst: memory stays bounded, the limit loosens).
   */
  private void esquecerOciosos(long agora) {
    long cheio = (long) Math.ceil(1000.0 * limite.rajada() / limite.requisicoesPorSegundo());
    baldes.values().removeIf(balde -> balde.ociosoDesde(agora) >= cheio);
    Iterator<String> restantes = baldes.keySet().iterator();
    while (baldes.size() >= limite.origensMaximas() && restantes.hasNext()) {
      restantes.next();
      restantes.remove();
    }
  }

  /** Tokens of one address; refills at the sustained rate up to the burst. */
  private static final class Balde {
    private double fichas;
    private long ultimo;

    Balde(long agora, int rajada) {
      this.fichas = rajada;
      this.ultimo = agora;
    }

    /** Takes a token; returns 0, or the milliseconds until one is there. */
    synchronized long retirar(long agora, ReceptorProperties.LimitePorOrigem limite) {
      double porMilissegundo = limite.requisicoesPorSegundo() / 1000.0;
      fichas = Math.min(limite.rajada(), fichas + Math.max(0, agora - ultimo) * porMilissegundo);
      ultimo = agora;
      if (fichas >= 1) {
        fichas -= 1;
        return 0;
      }
      return (long) Math.ceil((1 - fichas) / porMilissegundo);
    }

    synchronized long ociosoDesde(long agora) {
      return agora - ultimo;
    }
  }
}
