package pedidos.aplicador.painel;

import java.security.Principal;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import pedidos.contrato.MascaraDeEmail;
import pedidos.dominio.Efeito;

/**
 * The operators' safe actions, from the order's page and the anomalies page. Each is idempotent
 * (doing it twice does it once; the second says there was nothing to do), and every attempt is
 * audited ({@link Auditoria}) with who, when, what and how it ended, refused and failed ones too.
 *
 * <p>Authentication is {@link SegurancaDasOperacoes}' (operators only, 401 otherwise). The browser
 * sends an operator's Basic credentials with any request to this host, so a forged cross-site form
 * could carry them: every action requires the header {@value #CABECALHO}, which a cross-site form
 * cannot set and a cross-site script may not send without a CORS preflight this service never
 * grants.
 */
@RestController
class AcoesDasOperacoes {

  static final String CABECALHO = "X-Pedidos-Ops";

  private static final Logger log = LoggerFactory.getLogger(AcoesDasOperacoes.class);

  private final Auditoria auditoria;
  private final RederivacaoDoPedido rederivacao;
  private final RepublicacaoDeEfeito republicacaoDeEfeito;
  private final LiberacaoDaQuarentena liberacao;
  private final RepublicacaoDeMorto republicacaoDeMorto;

  AcoesDasOperacoes(
      Auditoria auditoria,
      RederivacaoDoPedido rederivacao,
      RepublicacaoDeEfeito republicacaoDeEfeito,
      LiberacaoDaQuarentena liberacao,
      RepublicacaoDeMorto republicacaoDeMorto) {
    this.auditoria = auditoria;
    this.rederivacao = rederivacao;
    this.republicacaoDeEfeito = republicacaoDeEfeito;
    this.liberacao = liberacao;
    this.republicacaoDeMorto = republicacaoDeMorto;
  }

  @PostMapping("/status/acoes/rederivar-pedido")
  ResponseEntity<Desfecho> rederivar(
      Principal operador,
      @RequestHeader(name = CABECALHO, required = false) String cabecalho,
      @RequestParam("pedido") String pedidoId) {
    return agir(
        operador,
        cabecalho,
        "rederivar_pedido",
        pedidoId,
        pedidoId,
        () -> rederivacao.rederivar(pedidoId));
  }

  @PostMapping("/status/acoes/republicar-efeito")
  ResponseEntity<Desfecho> republicarEfeito(
      Principal operador,
      @RequestHeader(name = CABECALHO, required = false) String cabecalho,
      @RequestParam("pedido") String pedidoId,
      @RequestParam("efeito") String efeito) {
    return agir(
        operador,
        cabecalho,
        "republicar_efeito",
        pedidoId + "/" + efeito,
        pedidoId,
        () -> {
          Efeito.doCodigo(efeito); // an unknown effect is refused before it reaches SQL
          return republicacaoDeEfeito.republicar(pedidoId, efeito);
        });
  }

  @PostMapping("/status/acoes/liberar-quarentena")
  ResponseEntity<Desfecho> liberarQuarentena(
      Principal operador,
      @RequestHeader(name = CABECALHO, required = false) String cabecalho,
      @RequestParam("id") long id) {
    return agir(
        operador,
        cabecalho,
        "liberar_quarentena",
        String.valueOf(id),
        null,
        () -> liberacao.liberar(id));
  }

  @PostMapping("/status/acoes/republicar-morto")
  ResponseEntity<Desfecho> republicarMorto(
      Principal operador,
      @RequestHeader(name = CABECALHO, required = false) String cabecalho,
      @RequestParam("id") long id) {
    return agir(
        operador,
        cabecalho,
        "republicar_morto",
        String.valueOf(id),
        null,
        () -> republicacaoDeMorto.pedir(id));
  }

  /** Shared with the bulk re-derivation's actions ({@link AcoesDaRederivacaoEmMassa}). */
  ResponseEntity<Desfecho> agir(
      Principal operador,
      String cabecalho,
      String acao,
      String alvo,
      String pedidoId,
      Supplier<Desfecho> fazer) {
    String quem = operador.getName();
    if (!"1".equals(cabecalho)) {
      Desfecho recusado =
          Desfecho.recusado("missing header " + CABECALHO + ": 1 (cross-site request?)", pedidoId);
      auditoria.registrar(quem, acao, alvo, recusado);
      return ResponseEntity.status(HttpStatus.FORBIDDEN).body(recusado);
    }
    Desfecho desfecho;
    try {
      desfecho = fazer.get();
    } catch (IllegalArgumentException e) {
      desfecho = Desfecho.recusado(e.getMessage(), pedidoId);
    } catch (RuntimeException e) {
      desfecho =
          new Desfecho(
              Desfecho.FALHOU,
              MascaraDeEmail.mascararNoTexto(String.valueOf(e.getMessage())),
              pedidoId);
      log.error(
          "ops action {} on {} by {} failed",
          acao,
          alvo,
          quem,
          MascaraDeEmail.mascararNaExcecao(e));
    }
    if (desfecho.pedidoId() == null && pedidoId != null) {
      desfecho = new Desfecho(desfecho.resultado(), desfecho.detalhe(), pedidoId);
    }
    auditoria.registrar(quem, acao, alvo, desfecho);
    log.info("ops action {} on {} by {}: {}", acao, alvo, quem, desfecho.resultado());
    HttpStatus http =
        switch (desfecho.resultado()) {
          case Desfecho.RECUSADO -> HttpStatus.CONFLICT;
          case Desfecho.FALHOU -> HttpStatus.INTERNAL_SERVER_ERROR;
          default -> HttpStatus.OK;
        };
    return ResponseEntity.status(http).body(desfecho);
  }
}
