package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The policy's writes, one example each. */
class PoliticaDeAplicacaoTest {

  private final Fato pago = new Fato("pago", Status.PAGO, 10, 1990L, null);
  private final Fato cancelado = new Fato("cancelado", Status.CANCELADO, 20, null, null);
  private final Fato enviado = new Fato("enviado", Status.ENVIADO, 30, null, "a@loja");

  @Test
  void oPrimeiroFatoDeUmPedidoGravaOEstadoEOsEfeitos() {
    assertThat(decidir(null, List.of(), pendente(pago), ModoDeAplicacao.NORMAL))
        .isEqualTo(
            new Escrita.Gravar(
                "pago",
                new EstadoDoPedido(Status.PAGO, 10, 1990L, null),
                List.of(Efeito.LIBERAR_SEPARACAO),
                Resultado.APLICADO,
                Map.of()));
  }

  @Test
  void umCancelamentoAtrasadoCorrigeOResultadoDoEnviado() {
    var armazenado = new EstadoDoPedido(Status.ENVIADO, 30, 1990L, "a@loja");
    var doPedido =
        List.of(aplicado(pago, Resultado.APLICADO), aplicado(enviado, Resultado.APLICADO));

    assertThat(decidir(armazenado, doPedido, pendente(cancelado), ModoDeAplicacao.NORMAL))
        .isEqualTo(
            new Escrita.Gravar(
                "cancelado",
                new EstadoDoPedido(Status.CANCELADO, 20, 1990L, "a@loja"),
                List.of(),
                Resultado.APLICADO,
                Map.of("enviado", Resultado.REGRESSAO_DE_TERMINAL)));
  }

  @Test
  void umEventoJaAplicadoSoEReaplicadoNoModoForcado() {
    var armazenado = new EstadoDoPedido(Status.PAGO, 10, 1990L, null);
    var evento = aplicado(pago, Resultado.APLICADO);

    assertThat(decidir(armazenado, List.of(evento), evento, ModoDeAplicacao.NORMAL))
        .isEqualTo(new Escrita.Nada());
    assertThat(decidir(armazenado, List.of(evento), evento, ModoDeAplicacao.VARREDURA))
        .isEqualTo(new Escrita.Nada());
    assertThat(decidir(armazenado, List.of(evento), evento, ModoDeAplicacao.FORCADO))
        .as("the same state, no effect: the transition was observed before")
        .isEqualTo(new Escrita.Gravar("pago", armazenado, List.of(), Resultado.APLICADO, Map.of()));
  }

  @Test
  void oReplayForcadoRefazOEstadoPerdidoSemRepetirEfeitoQueAChaveDescarta() {
    // A restore lost the order's row; its facts are still in the inbox.
    var doPedido = List.of(aplicado(pago, Resultado.APLICADO));

    var escrita = decidir(null, doPedido, doPedido.get(0), ModoDeAplicacao.FORCADO);

    assertThat(escrita)
        .isEqualTo(
            new Escrita.Gravar(
                "pago",
                new EstadoDoPedido(Status.PAGO, 10, 1990L, null),
                List.of(Efeito.LIBERAR_SEPARACAO),
                Resultado.APLICADO,
                Map.of()));
  }

  @Test
  void umEventoSemFatoEAssentadoComOMotivo() {
    var invalido =
        new EventoGravado(
            "e1", Interpretacao.SemFato.invalido("instante invalido: ontem"), false, null);

    assertThat(decidir(null, List.of(), invalido, ModoDeAplicacao.NORMAL))
        .isEqualTo(new Escrita.Assentar("e1", Resultado.FATO_INVALIDO, "instante invalido: ontem"));
  }

  @Test
  void linhasQueNaoSaoFatosDoPedidoFicamForaDaDobra() {
    var doPedido =
        List.of(
            pendente(cancelado),
            new EventoGravado("cancelado-2", cancelado2(), true, "falha_de_aplicacao"),
            new EventoGravado(
                "x",
                Interpretacao.SemFato.invalido("total_cents invalido: 1.5"),
                true,
                "fato_invalido"));

    assertThat(decidir(null, doPedido, pendente(pago), ModoDeAplicacao.NORMAL))
        .isEqualTo(decidir(null, List.of(), pendente(pago), ModoDeAplicacao.NORMAL));
  }

  @Test
  void umFatoLidoComOIdDeOutroEventoERecusado() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new EventoGravado("outro", pago, false, null))
        .withMessageContaining("outro");
  }

  private Fato cancelado2() {
    return new Fato("cancelado-2", Status.CANCELADO, 21, null, null);
  }

  private static Escrita decidir(
      EstadoDoPedido armazenado,
      List<EventoGravado> doPedido,
      EventoGravado evento,
      ModoDeAplicacao modo) {
    return PoliticaDeAplicacao.decidir(armazenado, doPedido, evento, modo);
  }

  private static EventoGravado pendente(Fato fato) {
    return new EventoGravado(fato.eventoId(), fato, false, null);
  }

  private static EventoGravado aplicado(Fato fato, Resultado resultado) {
    return new EventoGravado(fato.eventoId(), fato, true, resultado.codigo());
  }
}
