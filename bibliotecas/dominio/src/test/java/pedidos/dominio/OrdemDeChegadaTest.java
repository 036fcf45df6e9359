package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The seed's claim, "never on who arrived first", broken by its own rules and made true. */
class OrdemDeChegadaTest {

  private final Fato pago = new Fato("pago", Status.PAGO, 10, null, null);
  private final Fato cancelado = new Fato("cancelado", Status.CANCELADO, 20, null, null);
  private final Fato enviado = new Fato("enviado", Status.ENVIADO, 30, null, null);

  @Test
  void aSementeDependeDeQuemChegouPrimeiro() {
    assertThat(Semente.naChegada(List.of(pago, cancelado, enviado)).estado().status())
        .isEqualTo(Status.CANCELADO);
    assertThat(Semente.naChegada(List.of(enviado, pago, cancelado)).estado().status())
        .as("the late cancelado is merely old when enviado came first")
        .isEqualTo(Status.ENVIADO);
  }

  @Test
  void oEstadoAplicadoNaoDependeDeQuemChegouPrimeiro() {
    var emOrdem = aplicarNaOrdem(List.of(pago, cancelado, enviado));
    var enviadoPrimeiro = aplicarNaOrdem(List.of(enviado, pago, cancelado));

    assertThat(emOrdem.estado()).isEqualTo(new EstadoDoPedido(Status.CANCELADO, 20, null, null));
    assertThat(enviadoPrimeiro.estado()).isEqualTo(emOrdem.estado());
    assertThat(enviadoPrimeiro.resultados())
        .containsEntry("pago", Resultado.APLICADO)
        .containsEntry("cancelado", Resultado.APLICADO)
        .containsEntry("enviado", Resultado.REGRESSAO_DE_TERMINAL);
  }

  @Test
  void osEfeitosSaemDaTransicaoObservada() {
    var emOrdem = new TabelasEmMemoria();
    emOrdem.entregar(pago, cancelado, enviado);
    assertThat(emOrdem.outbox())
        .containsExactly(Efeito.LIBERAR_SEPARACAO, Efeito.INTERROMPER_SEPARACAO);

    var enviadoPrimeiro = new TabelasEmMemoria();
    enviadoPrimeiro.entregar(enviado, pago, cancelado);
    assertThat(enviadoPrimeiro.outbox())
        .as("never observed pago: nothing was released, so nothing is interrupted")
        .isEmpty();
  }

  @Test
  void pagamentoDepoisDoCancelamentoNaoLiberaNada() {
    var tabelas = new TabelasEmMemoria();
    tabelas.entregar(new Fato("criado", Status.CRIADO, 1, null, null), cancelado, pago);
    assertThat(tabelas.estado().status()).isEqualTo(Status.CANCELADO);
    assertThat(tabelas.outbox()).isEmpty();
  }

  @Test
  void camposConflitantesTerminamIguaisEmQualquerOrdem() {
    var pagoComA = new Fato("p", Status.PAGO, 5, 100L, "a@loja");
    var enviadoComB = new Fato("e", Status.ENVIADO, 5, 200L, "b@loja");

    assertThat(Semente.naChegada(List.of(pagoComA, enviadoComB)).estado())
        .isNotEqualTo(Semente.naChegada(List.of(enviadoComB, pagoComA)).estado());
    assertThat(aplicarNaOrdem(List.of(pagoComA, enviadoComB)).estado())
        .as("a tie of versions: the more advanced status wins, as the seed's rank intends")
        .isEqualTo(new EstadoDoPedido(Status.ENVIADO, 5, 200L, "b@loja"))
        .isEqualTo(aplicarNaOrdem(List.of(enviadoComB, pagoComA)).estado());
  }

  private static TabelasEmMemoria aplicarNaOrdem(List<Fato> chegadas) {
    var tabelas = new TabelasEmMemoria();
    chegadas.forEach(tabelas::entregar);
    return tabelas;
  }
}
