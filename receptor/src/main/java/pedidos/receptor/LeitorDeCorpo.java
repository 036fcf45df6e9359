package pedidos.receptor;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.stereotype.Component;
import pedidos.receptor.Recusa.CorpoGrandeDemais;
import pedidos.receptor.Recusa.CorpoIlegivel;

/**
 * Reads the raw body, never more than the limit: a declared {@code Content-Length} over it is
 * refused before a byte is read, and a chunked body is cut off at limit + 1 bytes. The signature
 * covers the exact bytes, so the body is read as bytes, not through a message converter.
 */
@Component
final class LeitorDeCorpo {

  private final int limite;

  LeitorDeCorpo(ReceptorProperties propriedades) {
    this.limite = propriedades.limiteDoCorpo();
  }

  byte[] ler(HttpServletRequest requisicao) {
    long declarado = requisicao.getContentLengthLong();
    if (declarado > limite) {
      throw new CorpoGrandeDemais(limite);
    }
    byte[] corpo;
    // Not closed here: the container owns the stream and drains what is left after a 413.
    try {
      InputStream entrada = requisicao.getInputStream();
      corpo = entrada.readNBytes(declarado >= 0 ? (int) declarado : limite + 1);
    } catch (IOException e) {
      throw new CorpoIlegivel(e);
    }
    if (corpo.length > limite) {
      throw new CorpoGrandeDemais(limite);
    }
    if (declarado >= 0 && corpo.length < declarado) {
      throw new CorpoIlegivel(null);
    }
    return corpo;
  }
}
