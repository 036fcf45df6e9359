package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.stereotype.Component;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;

/**
 * Reads the raw body, never more than the limit: a declared {@code Content-Length} over it is
 * refused before a byte is read, and a chunked body is cut off at limit + 1 bytes. The signature
 * covers the exact bytes, so the body is read as bytes, not through a message converter.
 *
 * <p>Before reading, the body's size is reserved in {@link CorposEmMemoria} (the declared length,
 * or the limit when none is declared); the {@link Corpo} returned gives it back when closed, once
 * the request is answered.
 */
@Component
final class LeitorDeCorpo {

  private final int limite;
  private final CorposEmMemoria memoria;

  LeitorDeCorpo(ReceptorProperties propriedades, CorposEmMemoria memoria) {
    this.limite = propriedades.limiteDoCorpo();
    this.memoria = memoria;
  }

  Corpo ler(HttpServletRequest requisicao) {
    long declarado = requisicao.getContentLengthLong();
    if (declarado > limite) {
      throw grandeDemais();
    }
    int reservado = declarado >= 0 ? (int) declarado : limite;
    memoria.reservar(reservado);
    byte[] corpo;
    try {
      corpo = lerAteOLimite(requisicao, declarado);
    } catch (RuntimeException e) {
      memoria.liberar(reservado);
      throw e;
    }
    // A chunked body reserved the whole limit; keep only what it took.
    memoria.liberar(reservado - corpo.length);
    return new Corpo(corpo, memoria);
  }

  private byte[] lerAteOLimite(HttpServletRequest requisicao, long declarado) {
    byte[] corpo;
    // Not closed here: the container owns the stream and drains what is left after a 413.
    try {
      InputStream entrada = requisicao.getInputStream();
      corpo = entrada.readNBytes(declarado >= 0 ? (int) declarado : limite + 1);
    } catch (IOException e) {
      throw ilegivel(e);
    }
    if (corpo.length > limite) {
      throw grandeDemais();
    }
    if (declarado >= 0 && corpo.length < declarado) {
      throw ilegivel(null);
    }
    return corpo;
  }

  private Recusa grandeDemais() {
    return new Recusa(
        TipoDeRecusa.CORPO_GRANDE_DEMAIS,
        "The body is larger than the limit of " + limite + " bytes.");
  }

  private static Recusa ilegivel(Throwable causa) {
    return new Recusa(
        TipoDeRecusa.CORPO_ILEGIVEL, "The request body could not be read to its end.", causa);
  }

  /** A body read whole, holding its share of {@link CorposEmMemoria} until closed. */
  static final class Corpo implements AutoCloseable {
    private final byte[] bytes;
    private final CorposEmMemoria memoria;
    private boolean liberado;

    private Corpo(byte[] bytes, CorposEmMemoria memoria) {
      this.bytes = bytes;
      this.memoria = memoria;
    }

    byte[] bytes() {
      return bytes;
    }

    @Override
    public void close() {
      if (!liberado) {
        liberado = true;
        memoria.liberar(bytes.length);
      }
    }
  }
}
