package pedidos.publicador;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Relays one batch of the stream: send every row, wait for every acknowledgement, mark the outbox
 * rows sent, and only then mark the batch processed, which is what lets the engine store its
 * position and confirm it to the slot.
 *
 * <p>Any failure throws out of {@link #handleBatch}: the engine stops with nothing of the batch
 * committed, and after the restart the batch comes again (duplicates, never a gap). Records that
 * are not rows (heartbeats, logical messages) are not sent but are marked processed, so that the
 * position advances through them.
 */
class ConsumidorDeMudancas implements DebeziumEngine.ChangeConsumer<ChangeEvent<String, String>> {

  private final FormatoDasMensagens formato;
  private final EnviadorDeMensagens enviador;
  private final RegistroDeEnvios registro;
  private final BooleanSupplier parando;

  ConsumidorDeMudancas(
      FormatoDasMensagens formato,
      EnviadorDeMensagens enviador,
      RegistroDeEnvios registro,
      BooleanSupplier parando) {
    this.formato = formato;
    this.enviador = enviador;
    this.registro = registro;
    this.parando = parando;
  }

  @Override
  public void handleBatch(
      List<ChangeEvent<String, String>> mudancas,
      DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> committer)
      throws InterruptedException {
    List<Mensagem> mensagens = new ArrayList<>(mudancas.size());
    List<ChaveDoEfeito> efeitos = new ArrayList<>();
    for (ChangeEvent<String, String> mudanca : mudancas) {
      Optional<Mensagem> mensagem = formato.daMudanca(mudanca);
      if (mensagem.isPresent()) {
        mensagens.add(mensagem.get());
        if (mensagem.get().efeito() != null) {
          efeitos.add(mensagem.get().efeito());
        }
      }
    }
    enviador.enviarTodas(mensagens, Via.CDC, parando);
    registro.marcar(efeitos);
    for (ChangeEvent<String, String> mudanca : mudancas) {
      committer.markProcessed(mudanca);
    }
    committer.markBatchFinished();
  }
}
