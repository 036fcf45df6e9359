package pedidos.aplicador.painel;

import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import pedidos.aplicador.painel.LotesDeRederivacao.Filtro;
import pedidos.aplicador.painel.LotesDeRederivacao.Lote;

/**
 * The bulk re-derivation from the status page ({@code /rederivacao.html}): create a job from a
 * filter or an uploaded list of order ids (its dry run starts at once), confirm the run, pause,
 * resume, cancel; and what the page reads. Each action is one of the operators' audited actions
 * ({@link AcoesDasOperacoes}: login, the cross-site header, one audit row per attempt); the job
 * adds one row with its counts when it ends.
 */
@RestController
class AcoesDaRederivacaoEmMassa {

  private final AcoesDasOperacoes acoes;
  private final LotesDeRederivacao lotes;
  private final ExecutorDeRederivacoes executor;
  private final Map<String, LongFunction<Desfecho>> transicoes;

  AcoesDaRederivacaoEmMassa(
      AcoesDasOperacoes acoes, LotesDeRederivacao lotes, ExecutorDeRederivacoes executor) {
    this.acoes = acoes;
    this.lotes = lotes;
    this.executor = executor;
    this.transicoes =
        Map.of(
            "confirmar", lotes::confirmar,
            "pausar", lotes::pausar,
            "retomar", lotes::retomar,
            "cancelar", lotes::cancelar);
  }

  /**
   * A new job in dry run. The list of order ids, if any, is the request's body (one per line, or
   * separated by commas or spaces), as the page uploads a file.
   */
  @PostMapping("/status/acoes/rederivar-em-massa")
  ResponseEntity<Desfecho> criar(
      Principal operador,
      @RequestHeader(name = AcoesDasOperacoes.CABECALHO, required = false) String cabecalho,
      @RequestParam(name = "desde", required = false) Instant desde,
      @RequestParam(name = "ate", required = false) Instant ate,
      @RequestParam(name = "tipo", required = false) String tipo,
      @RequestParam(name = "veredicto", required = false) String veredicto,
      @RequestParam(name = "ritmo", defaultValue = "0") int ritmo,
      @RequestBody(required = false) String lista) {
    Filtro filtro = new Filtro(desde, ate, tipo, veredicto, Filtro.lerLista(lista));
    return acoes.agir(
        operador,
        cabecalho,
        "rederivar_em_massa",
        "new job: " + filtro.emPalavras(),
        null,
        () -> {
          Lote lote = lotes.criar(operador.getName(), filtro, ritmo);
          executor.acordar();
          return Desfecho.feito(
              "job "
                  + lote.id()
                  + " created, its dry run queued: "
                  + lote.pedidosTotal()
                  + " orders, "
                  + lote.fatosTotal()
                  + " facts ("
                  + lote.filtro()
                  + "), at most "
                  + lote.pedidosPorSegundo()
                  + " orders per second",
              null);
        });
  }

  /**
   * Confirm, pause, resume or cancel a job: the same audited action around each of the job's
   * transitions, recorded as {@code <verb>_rederivacao_em_massa}; the runner is woken to act on it.
   */
  @PostMapping("/status/acoes/rederivacao-em-massa/{verbo:confirmar|pausar|retomar|cancelar}")
  ResponseEntity<Desfecho> mudar(
      Principal operador,
      @RequestHeader(name = AcoesDasOperacoes.CABECALHO, required = false) String cabecalho,
      @PathVariable("verbo") String verbo,
      @RequestParam("lote") long lote) {
    LongFunction<Desfecho> transicao = transicoes.get(verbo);
    return acoes.agir(
        operador,
        cabecalho,
        verbo + "_rederivacao_em_massa",
        "job " + lote,
        null,
        () -> {
          Desfecho desfecho = transicao.apply(lote);
          executor.acordar();
          return desfecho;
        });
  }

  /** The latest jobs, newest first. */
  @GetMapping("/status/rederivacoes")
  List<Lote> recentes() {
    return lotes.recentes(20);
  }

  /** One job with its changes, before and after (the dry run's and the run's). */
  @GetMapping("/status/rederivacoes/{lote}")
  Map<String, Object> lote(@PathVariable("lote") long lote) {
    Lote lido =
        lotes
            .ler(lote)
            .orElseThrow(
                () -> new ResponseStatusException(HttpStatus.NOT_FOUND, "there is no job " + lote));
    return Map.of("lote", lido, "mudancas", lotes.mudancas(lote, 500));
  }
}
