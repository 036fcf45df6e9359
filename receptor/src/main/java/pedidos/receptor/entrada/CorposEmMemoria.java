package pedidos.receptor.entrada;

import java.util.concurrent.Semaphore;
import org.springframework.stereotype.Component;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.gravacao.ObservadorDoReceptor;

/**
 * How many bytes of request bodies the receptor holds at once, whatever the number of request
 * threads: {@code receptor.corpos-em-memoria}.
 *
 * <p>Without it the bound is the request threads times the body limit: 200 Tomcat threads on Java
 * 17, but with {@code spring.threads.virtual.enabled} on Java 21+ a virtual thread per connection
 * (up to Tomcat's 8,192), so 8 GiB of bodies, each held several times over (the bytes, the decoded
 * text, the driver's encoding of it). A request reserves its body's size before reading it (the
 * whole limit when the size is not declared, trimmed once read) and gives it back when answered;
 * when the reservation does not fit, it is answered 503 at once, before a byte of its body is read.
 */
@Component
final class CorposEmMemoria {

  private final Semaphore bytesLivres;

  CorposEmMemoria(ReceptorProperties propriedades, ObservadorDoReceptor observador) {
    int limite = propriedades.limiteDeCorposEmMemoria();
    this.bytesLivres = new Semaphore(limite);
    observador.observarCorposEmMemoria(bytesLivres, limite);
  }

  /** Reserves {@code bytes}, or refuses the request with 503 {@code sobrecarregado}. */
  void reservar(int bytes) {
    if (!bytesLivres.tryAcquire(bytes)) {
      throw new Recusa(
          TipoDeRecusa.SOBRECARREGADO, "Too many request bodies are being processed; retry later.");
    }
  }

  void liberar(int bytes) {
    bytesLivres.release(bytes);
  }
}
