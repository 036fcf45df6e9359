package pedidos.receptor;

import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The warm-up's writes ({@link AquecimentoDoReceptor}): the inbox's insert and comparison on a
 * made-up event, in one transaction that is rolled back, so nothing reaches the table, the WAL's
 * committed changes or the relay.
 */
@Component
final class EnsaioDaGravacao {

  private final CaixaDeEntrada caixa;
  private final TransactionTemplate transacao;

  EnsaioDaGravacao(CaixaDeEntrada caixa, TransactionTemplate transacao) {
    this.caixa = caixa;
    this.transacao = transacao;
  }

  void ensaiar(EventoRecebido evento) {
    transacao.executeWithoutResult(
        status -> {
          status.setRollbackOnly();
          caixa.inserir(List.of(evento));
          caixa.comparar(List.of(evento));
        });
  }
}
