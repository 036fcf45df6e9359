package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins every rule of the seed, one example each. */
class RegrasDaSementeTest {

  @Test
  void rankSegueASemente() {
    assertThat(List.of(Status.values()))
        .extracting(Status::codigo, Status::rank)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("criado", 1),
            org.assertj.core.groups.Tuple.tuple("pago", 2),
            org.assertj.core.groups.Tuple.tuple("enviado", 3),
            org.assertj.core.groups.Tuple.tuple("cancelado", 4),
            org.assertj.core.groups.Tuple.tuple("reembolsado", 5));
  }

  @Test
  void terminaisSoSaemParaOsDestinosListados() {
    for (Status destino : Status.values()) {
      assertThat(Status.CANCELADO.permiteSair(destino)).isEqualTo(destino == Status.REEMBOLSADO);
      assertThat(Status.REEMBOLSADO.permiteSair(destino)).isFalse();
      assertThat(Status.CRIADO.permiteSair(destino)).isTrue();
      assertThat(Status.PAGO.permiteSair(destino)).isTrue();
      assertThat(Status.ENVIADO.permiteSair(destino)).isTrue();
    }
    assertThat(Status.CANCELADO.terminal()).isTrue();
    assertThat(Status.REEMBOLSADO.terminal()).isTrue();
    assertThat(Status.PAGO.terminal()).isFalse();
  }

  @Test
  void tipoDoEventoDaOStatus() {
    assertThat(Status.doTipoDeEvento("order.created")).contains(Status.CRIADO);
    assertThat(Status.doTipoDeEvento("order.paid")).contains(Status.PAGO);
    assertThat(Status.doTipoDeEvento("order.shipped")).contains(Status.ENVIADO);
    assertThat(Status.doTipoDeEvento("order.canceled")).contains(Status.CANCELADO);
    assertThat(Status.doTipoDeEvento("order.refunded")).contains(Status.REEMBOLSADO);
    assertThat(Status.doTipoDeEvento("order.updated")).isEmpty();
    assertThat(Status.doTipoDeEvento(null)).isEmpty();
  }

  @Test
  void statusDaApiDaOStatus() {
    assertThat(Status.daApi("open")).contains(Status.CRIADO);
    assertThat(Status.daApi("paid")).contains(Status.PAGO);
    assertThat(Status.daApi("shipped")).contains(Status.ENVIADO);
    assertThat(Status.daApi("canceled")).contains(Status.CANCELADO);
    assertThat(Status.daApi("refunded")).contains(Status.REEMBOLSADO);
    assertThat(Status.daApi("lost")).isEmpty();
  }

  @Test
  void versaoUsaASequenciaQuandoEInteiroSeguro() {
    assertThat(versao(new BigDecimal("7"), null, Status.PAGO)).isEqualTo(7);
    assertThat(versao(new BigDecimal("7.0"), "lixo", Status.PAGO)).isEqualTo(7);
    assertThat(versao(new BigDecimal("-3"), null, Status.PAGO)).isEqualTo(-3);
    assertThat(versao(new BigDecimal("9007199254740991"), null, Status.PAGO))
        .isEqualTo(9007199254740991L);
  }

  @Test
  void versaoCaiNoInstanteQuandoASequenciaNaoEInteiroSeguro() {
    String instante = "2026-11-29T12:00:00.123Z";
    long ms = 1_795_953_600_123L;
    assertThat(versao(null, instante, Status.PAGO)).isEqualTo(ms * 10 + 2);
    assertThat(versao(new BigDecimal("7.5"), instante, Status.ENVIADO)).isEqualTo(ms * 10 + 3);
    assertThat(versao(new BigDecimal("9007199254740992"), instante, Status.CRIADO))
        .isEqualTo(ms * 10 + 1);
    assertThat(versao(null, "2026-11-29T13:00:00.123+01:00", Status.PAGO)).isEqualTo(ms * 10 + 2);
  }

  @Test
  void instanteIlegivelEErroPermanenteTipado() {
    assertThat(VersaoDoFato.de(null, "ontem", Status.PAGO))
        .isEqualTo(new VersaoDoFato.InstanteInvalido("ontem"));
    assertThat(VersaoDoFato.de(null, null, Status.PAGO))
        .isInstanceOf(VersaoDoFato.InstanteInvalido.class);
    assertThat(VersaoDoFato.de(null, "2026-11-29T12:00:00", Status.PAGO))
        .as("a local time without a zone is ambiguous")
        .isInstanceOf(VersaoDoFato.InstanteInvalido.class);
    assertThat(VersaoDoFato.de(null, "+275760-09-13T00:00:00.001Z", Status.PAGO))
        .as("outside a JavaScript Date")
        .isInstanceOf(VersaoDoFato.InstanteInvalido.class);
    assertThat(Interpretacao.doEvento("e1", "order.paid", null, "ontem", null, null))
        .isEqualTo(Interpretacao.SemFato.invalido("instante invalido: ontem"));
  }

  @Test
  void tipoDesconhecidoEIgnoradoPeloNome() {
    var interpretacao = Interpretacao.doEvento("e1", "order.updated", null, "ontem", null, null);
    assertThat(interpretacao).isInstanceOf(Interpretacao.SemFato.class);
    assertThat(((Interpretacao.SemFato) interpretacao).resultado())
        .isEqualTo(Resultado.TIPO_IGNORADO);
  }

  @Test
  void decidirSemEstadoAplica() {
    assertThat(Decisao.decidir(null, Status.ENVIADO, 1)).isEqualTo(new Decisao.Aplicar(null));
  }

  @Test
  void decidirComVersaoIgualOuMenorEEventoAntigo() {
    var atual = new EstadoDoPedido(Status.PAGO, 10, null, null);
    assertThat(Decisao.decidir(atual, Status.ENVIADO, 10))
        .isEqualTo(new Decisao.Ignorar(Resultado.EVENTO_ANTIGO));
    assertThat(Decisao.decidir(atual, Status.ENVIADO, 9))
        .isEqualTo(new Decisao.Ignorar(Resultado.EVENTO_ANTIGO));
    assertThat(Decisao.decidir(atual, Status.ENVIADO, 11))
        .isEqualTo(new Decisao.Aplicar(Status.PAGO));
  }

  @Test
  void decidirNaoSaiDeTerminalSenaoParaOListado() {
    var cancelado = new EstadoDoPedido(Status.CANCELADO, 10, null, null);
    assertThat(Decisao.decidir(cancelado, Status.ENVIADO, 11))
        .isEqualTo(new Decisao.Ignorar(Resultado.REGRESSAO_DE_TERMINAL));
    assertThat(Decisao.decidir(cancelado, Status.REEMBOLSADO, 11))
        .isEqualTo(new Decisao.Aplicar(Status.CANCELADO));
    var reembolsado = new EstadoDoPedido(Status.REEMBOLSADO, 10, null, null);
    assertThat(Decisao.decidir(reembolsado, Status.REEMBOLSADO, 11))
        .isEqualTo(new Decisao.Ignorar(Resultado.REGRESSAO_DE_TERMINAL));
  }

  @Test
  void efeitosSaemDaTransicao() {
    assertThat(Efeito.daTransicao(null, Status.PAGO)).containsExactly(Efeito.LIBERAR_SEPARACAO);
    assertThat(Efeito.daTransicao(Status.CRIADO, Status.PAGO))
        .containsExactly(Efeito.LIBERAR_SEPARACAO);
    assertThat(Efeito.daTransicao(Status.PAGO, Status.CANCELADO))
        .containsExactly(Efeito.INTERROMPER_SEPARACAO);
    assertThat(Efeito.daTransicao(Status.CRIADO, Status.CANCELADO)).isEmpty();
    assertThat(Efeito.daTransicao(Status.ENVIADO, Status.CANCELADO)).isEmpty();
    assertThat(Efeito.daTransicao(Status.CANCELADO, Status.REEMBOLSADO))
        .containsExactly(Efeito.NOTIFICAR_REEMBOLSO);
    assertThat(Efeito.daTransicao(Status.PAGO, Status.ENVIADO)).isEmpty();
    assertThat(Efeito.daTransicao(null, Status.CRIADO)).isEmpty();
  }

  @Test
  void fatoAntigoAindaCompletaCamposNulos() {
    var atual = new EstadoDoPedido(Status.ENVIADO, 30, null, "novo@loja");
    var passo = Passo.aplicar(atual, new Fato("e1", Status.PAGO, 10, 1990L, "velho@loja"));
    assertThat(passo.resultado()).isEqualTo(Resultado.EVENTO_ANTIGO);
    assertThat(passo.estado())
        .isEqualTo(new EstadoDoPedido(Status.ENVIADO, 30, 1990L, "novo@loja"));
    assertThat(passo.efeitos()).isEmpty();
  }

  @Test
  void fatoNovoSemCampoNaoApagaOQueExiste() {
    var atual = new EstadoDoPedido(Status.PAGO, 10, 1990L, "a@loja");
    var passo = Passo.aplicar(atual, new Fato("e2", Status.ENVIADO, 30, null, "b@loja"));
    assertThat(passo.resultado()).isEqualTo(Resultado.APLICADO);
    assertThat(passo.estado()).isEqualTo(new EstadoDoPedido(Status.ENVIADO, 30, 1990L, "b@loja"));
  }

  @Test
  void fatoDaApiUsaOMesmoCriterio() {
    assertThat(
            Interpretacao.daApi("api:1", "paid", null, "2026-11-29T12:00:00.123Z", 1990L, "a@loja"))
        .isEqualTo(new Fato("api:1", Status.PAGO, 1_795_953_600_123L * 10 + 2, 1990L, "a@loja"));
    assertThat(Interpretacao.daApi("api:1", "shipped", new BigDecimal("4"), null, null, null))
        .isEqualTo(new Fato("api:1", Status.ENVIADO, 4, null, null));
    assertThat(Interpretacao.daApi("api:1", "lost", new BigDecimal("4"), null, null, null))
        .isEqualTo(Interpretacao.SemFato.invalido("status desconhecido: lost"));
  }

  @Test
  void oIdDeUmPedidoLidoNaApiEDaVersaoENaoDaLeitura() {
    assertThat(Interpretacao.eventoIdDaApi("ord_1", "paid", new BigDecimal("7.0"), "x"))
        .isEqualTo("api:ord_1:s7:paid");
    assertThat(Interpretacao.eventoIdDaApi("ord_1", "paid", null, "2026-11-29T12:00:00Z"))
        .isEqualTo("api:ord_1:2026-11-29T12:00:00Z:paid");
    assertThat(Interpretacao.eventoIdDaApi("ord_1", "lost", null, "2026-11-29T12:00:00Z")).isNull();
  }

  private static long versao(BigDecimal sequence, String instante, Status status) {
    return ((VersaoDoFato.Valida) VersaoDoFato.de(sequence, instante, status)).valor();
  }
}
