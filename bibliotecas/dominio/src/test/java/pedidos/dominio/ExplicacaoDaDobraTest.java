package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import pedidos.dominio.ExplicacaoDaDobra.PassoExplicado;

class ExplicacaoDaDobraTest {

  private static final Fato CRIADO = new Fato("e1", Status.CRIADO, 10, 1990L, "ana@example.com");
  private static final Fato PAGO = new Fato("e2", Status.PAGO, 20, null, null);
  private static final Fato CANCELADO = new Fato("e3", Status.CANCELADO, 30, null, null);
  private static final Fato ENVIADO_TARDE = new Fato("e4", Status.ENVIADO, 40, null, null);

  @Test
  void umPedidoCanceladoComUmEnviadoTardioDizPorQue() {
    // arrival order: the late 'enviado' first, the cancellation after it
    ExplicacaoDaDobra explicacao =
        ExplicacaoDaDobra.explicarFatos(List.of(ENVIADO_TARDE, CANCELADO, PAGO, CRIADO));

    assertThat(explicacao.estado().status()).isEqualTo(Status.CANCELADO);
    assertThat(explicacao.passos())
        .extracting(passo -> passo.fato().eventoId())
        .containsExactly("e1", "e2", "e3", "e4");
    assertThat(explicacao.passos())
        .extracting(PassoExplicado::resultado)
        .containsExactly(
            Resultado.APLICADO,
            Resultado.APLICADO,
            Resultado.APLICADO,
            Resultado.REGRESSAO_DE_TERMINAL);
    PassoExplicado pago = explicacao.passos().get(1);
    assertThat(pago.efeitos()).containsExactly(Efeito.LIBERAR_SEPARACAO);
    assertThat(pago.porque()).contains("from criado to pago", "liberar_separacao");
    PassoExplicado cancelado = explicacao.passos().get(2);
    assertThat(cancelado.efeitos()).containsExactly(Efeito.INTERROMPER_SEPARACAO);
    PassoExplicado enviado = explicacao.passos().get(3);
    assertThat(enviado.antes().status()).isEqualTo(Status.CANCELADO);
    assertThat(enviado.depois().status()).isEqualTo(Status.CANCELADO);
    assertThat(enviado.porque())
        .isEqualTo(
            "terminal regression: the order is cancelado, a terminal status that only"
                + " reembolsado may follow; enviado (version 40) would leave it, so it is ignored");
  }

  @Test
  void umFatoAntigoDizAVersaoEmVigorEOQuePreencheu() {
    Fato pagoComTotal = new Fato("e5", Status.PAGO, 15, 2500L, null);
    ExplicacaoDaDobra explicacao =
        ExplicacaoDaDobra.explicarFatos(
            List.of(
                new Fato("e6", Status.PAGO, 20, null, null),
                new Fato("e7", Status.CRIADO, 10, null, null),
                pagoComTotal,
                new Fato("e8", Status.CRIADO, 5, null, null)));

    // canonical order: e8 (v5), e7 (v10), e5 (v15), e6 (v20)
    assertThat(explicacao.passos().get(1).porque()).contains("from criado to criado");
    assertThat(explicacao.estado().totalCentavos()).isEqualTo(2500L);
    ExplicacaoDaDobra antigoDeVerdade =
        ExplicacaoDaDobra.explicarFatos(
            List.of(PAGO, new Fato("e2b", Status.PAGO, 20, 777L, null)));
    assertThat(antigoDeVerdade.passos().get(1).resultado()).isEqualTo(Resultado.EVENTO_ANTIGO);
    assertThat(antigoDeVerdade.passos().get(1).porque())
        .isEqualTo(
            "old: version 20 is not newer than version 20 of the fact in force (pago), so pago"
                + " changes no status; it filled the missing total");
  }

  @Test
  void eventosForaDaDobraDizemPorQue() {
    Interpretacao semFato = Interpretacao.SemFato.invalido("instante invalido: ontem");
    ExplicacaoDaDobra explicacao =
        ExplicacaoDaDobra.explicar(
            List.of(
                new EventoGravado("e1", CRIADO, true, "aplicado"),
                new EventoGravado("e2", PAGO, false, null),
                new EventoGravado("e3", CANCELADO, true, "falha_de_aplicacao"),
                new EventoGravado("e9", semFato, true, "fato_invalido")));

    assertThat(explicacao.estado().status()).isEqualTo(Status.CRIADO);
    assertThat(explicacao.foraDaDobra())
        .extracting(ExplicacaoDaDobra.ForaDaDobra::eventoId)
        .containsExactly("e2", "e3", "e9");
    assertThat(explicacao.foraDaDobra().get(0).porque()).startsWith("not applied yet");
    assertThat(explicacao.foraDaDobra().get(1).porque()).contains("Re-deriving the order");
    assertThat(explicacao.foraDaDobra().get(2).porque())
        .startsWith("Invalid fact")
        .endsWith("(instante invalido: ontem)");
    assertThat(explicacao.confereCom(new EstadoDoPedido(Status.PAGO, 20, 1990L, null))).isFalse();
    assertThat(explicacao.confereCom(explicacao.estado())).isTrue();
  }

  @Test
  void oMesmoFatoEntregueDeNovoContaUmaVez() {
    ExplicacaoDaDobra explicacao = ExplicacaoDaDobra.explicarFatos(List.of(CRIADO, PAGO, PAGO));

    assertThat(explicacao.passos()).hasSize(3);
    PassoExplicado repetido = explicacao.passos().get(2);
    assertThat(repetido.repetido()).isTrue();
    assertThat(repetido.efeitos()).isEmpty();
    assertThat(repetido.depois()).isEqualTo(repetido.antes());
  }

  @Test
  void cadaVeredictoTemUmaFrase() {
    for (Resultado resultado : Resultado.values()) {
      assertThat(FrasesDosVeredictos.doCodigo(resultado.codigo()))
          .isEqualTo(FrasesDosVeredictos.de(resultado))
          .doesNotContain(resultado.codigo())
          .endsWith(".");
    }
    assertThat(FrasesDosVeredictos.doCodigo(null)).startsWith("Pending");
  }
}
