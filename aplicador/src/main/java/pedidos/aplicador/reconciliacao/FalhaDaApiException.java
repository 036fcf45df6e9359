package pedidos.aplicador.reconciliacao;

/** The orders API was slow, down, refused us or answered something that is not a page. */
class FalhaDaApiException extends RuntimeException {

  FalhaDaApiException(String motivo) {
    super(motivo);
  }

  FalhaDaApiException(String motivo, Throwable causa) {
    super(motivo, causa);
  }
}
