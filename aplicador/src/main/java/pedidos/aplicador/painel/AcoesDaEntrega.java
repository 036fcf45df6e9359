package pedidos.aplicador.painel;

import java.security.Principal;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import pedidos.aplicador.entrega.PausaDaEntrega;
import pedidos.contrato.MascaraDeEmail;

/**
 * Pausing and resuming delivery to the picking system from the status page ({@link
 * PausaDaEntrega}), and the state the page's banner shows. Guarded and audited as every action
 * ({@link AcoesDasOperacoes}: operators only, the header {@value AcoesDasOperacoes#CABECALHO}); a
 * change is audited in its own transaction, a refused or failed attempt here.
 */
@RestController
class AcoesDaEntrega {

  private static final Logger log = LoggerFactory.getLogger(AcoesDaEntrega.class);

  private final PausaDaEntrega pausa;
  private final ConsultasDoPainel consultas;
  private final Auditoria auditoria;

  AcoesDaEntrega(
      JdbcClient jdbc,
      TransactionTemplate transacao,
      ConsultasDoPainel consultas,
      Auditoria auditoria) {
    this.pausa = new PausaDaEntrega(jdbc, transacao);
    this.consultas = consultas;
    this.auditoria = auditoria;
  }

  /** Read on the page's own pool, like the rest of the page: a few rows and two index lookups. */
  @GetMapping("/status/entrega")
  PausaDaEntrega.Situacao situacao() {
    return PausaDaEntrega.ler(consultas.jdbc());
  }

  @PostMapping("/status/acoes/pausar-entrega")
  ResponseEntity<Desfecho> pausar(
      Principal operador,
      @RequestHeader(name = AcoesDasOperacoes.CABECALHO, required = false) String cabecalho,
      @RequestParam(name = "motivo", required = false) String motivo) {
    return agir(
        operador.getName(),
        cabecalho,
        PausaDaEntrega.PAUSAR,
        () -> pausa.pausar(operador.getName(), motivo, "page"));
  }

  @PostMapping("/status/acoes/retomar-entrega")
  ResponseEntity<Desfecho> retomar(
      Principal operador,
      @RequestHeader(name = AcoesDasOperacoes.CABECALHO, required = false) String cabecalho) {
    return agir(
        operador.getName(),
        cabecalho,
        PausaDaEntrega.RETOMAR,
        () -> pausa.retomar(operador.getName(), "page"));
  }

  private ResponseEntity<Desfecho> agir(
      String quem, String cabecalho, String acao, Supplier<PausaDaEntrega.Mudanca> fazer) {
    if (!"1".equals(cabecalho)) {
      Desfecho recusado =
          Desfecho.recusado(
              "missing header " + AcoesDasOperacoes.CABECALHO + ": 1 (cross-site request?)", null);
      auditoria.registrar(quem, acao, PausaDaEntrega.ALVO, recusado);
      return ResponseEntity.status(HttpStatus.FORBIDDEN).body(recusado);
    }
    try {
      PausaDaEntrega.Mudanca mudanca = fazer.get();
      log.info("ops action {} by {}: {}", acao, quem, mudanca.resultado());
      return ResponseEntity.ok(new Desfecho(mudanca.resultado(), mudanca.detalhe(), null));
    } catch (IllegalArgumentException e) {
      Desfecho recusado = Desfecho.recusado(e.getMessage(), null);
      auditoria.registrar(quem, acao, PausaDaEntrega.ALVO, recusado);
      return ResponseEntity.badRequest().body(recusado);
    } catch (RuntimeException e) {
      Desfecho falhou =
          new Desfecho(
              Desfecho.FALHOU,
              MascaraDeEmail.mascararNoTexto(String.valueOf(e.getMessage())),
              null);
      log.error("ops action {} by {} failed", acao, quem, MascaraDeEmail.mascararNaExcecao(e));
      auditoria.registrar(quem, acao, PausaDaEntrega.ALVO, falhou);
      return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(falhou);
    }
  }
}
