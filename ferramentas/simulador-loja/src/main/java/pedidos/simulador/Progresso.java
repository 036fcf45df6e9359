package pedidos.simulador;

/**
 * A live reading of a run, for a progress line.
 *
 * @param fase {@code entrega} or {@code verificacao}
 * @param divergencias divergences found by the last check; -1 before verification
 */
public record Progresso(
    String fase,
    int eventos,
    int perdidos,
    int eventosEnviados,
    int confirmados,
    long envios,
    long reenvios,
    int divergencias) {

  Progresso naVerificacao(int divergencias) {
    return new Progresso(
        "verificacao",
        eventos,
        perdidos,
        eventosEnviados,
        confirmados,
        envios,
        reenvios,
        divergencias);
  }

  /** One line for a terminal. */
  public String linha() {
    String linha =
        "%s: %d/%d events sent, %d confirmed, %d requests (%d resent), %d lost"
            .formatted(
                nomeDaFase(),
                eventosEnviados,
                eventos - perdidos,
                confirmados,
                envios,
                reenvios,
                perdidos);
    return divergencias < 0 ? linha : linha + ", " + divergencias + " divergences";
  }

  /** The phase as operators read it; {@link #fase()} keeps its stable value. */
  private String nomeDaFase() {
    return switch (fase) {
      case "entrega" -> "delivery";
      case "verificacao" -> "verification";
      default -> fase;
    };
  }
}
