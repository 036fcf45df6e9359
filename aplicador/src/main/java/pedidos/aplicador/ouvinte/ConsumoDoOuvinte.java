package pedidos.aplicador.ouvinte;

import org.springframework.stereotype.Component;
import pedidos.aplicador.configuracao.AplicadorProperties;

/**
 * What {@link OuvinteDeEventos} consumes, read by its annotation ({@code #{@consumoDoOuvinte...}})
 * from the validated settings, so their defaults and checks are the record's only. A bean of its
 * own: when these were public methods of the listener bean, Spring Kafka handed a record to {@code
 * topico()} instead of the listener method.
 */
@Component(ConsumoDoOuvinte.BEAN)
class ConsumoDoOuvinte {

  static final String BEAN = "consumoDoOuvinte";

  private final AplicadorProperties propriedades;

  ConsumoDoOuvinte(AplicadorProperties propriedades) {
    this.propriedades = propriedades;
  }

  public String topico() {
    return propriedades.topico();
  }

  public String grupo() {
    return propriedades.grupo();
  }

  public int concorrencia() {
    return propriedades.concorrencia();
  }
}
