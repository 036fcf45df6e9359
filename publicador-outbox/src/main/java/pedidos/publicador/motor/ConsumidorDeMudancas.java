package pedidos.publicador.motor;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.kafka.connect.source.SourceRecord;
import pedidos.publicador.entrega.EntregaDosEfeitos;
import pedidos.publicador.entrega.ModoDaEntrega;
import pedidos.publicador.envio.EnviadorDeMensagens;
import pedidos.publicador.envio.FalhaAoPublicarException;
import pedidos.publicador.envio.RegistroDeEnvios;
import pedidos.publicador.linhas.ChaveDoEfeito;
import pedidos.publicador.linhas.FalhasDaLinha;
import pedidos.publicador.linhas.FormatoDasMensagens;
import pedidos.publicador.linhas.Mensagem;
import pedidos.publicador.linhas.Morto;
import pedidos.publicador.linhas.OrigemDaLinha;
import pedidos.publicador.linhas.Via;
import pedidos.publicador.mortos.RegistroDeMortos;

/**
 * Relays one batch of the stream: send every row, wait for every acknowledgement, dead-letter the
 * rows that are poison, mark the outbox rows sent, and only then mark the batch processed, which is
 * what lets the engine store its position and confirm it to the slot.
 *
 * <p>A row that cannot be encoded, or whose record Kafka refuses for a reason of its own ({@link
 * FalhasDaLinha}), is recorded in the dead-letter table, committed before anything of the batch is
 * marked processed, and the batch goes on without it: one bad row must not stop every row after it.
 * Any other failure throws out of {@link #handleBatch}: the engine stops with nothing of the batch
 * committed, and after the restart the batch comes again (duplicates, never a gap). Records that
 * are not rows (heartbeats, logical messages) are not sent but are marked processed, so that the
 * position advances through them.
 *
 * <p>While delivery to the picking system is not live ({@link EntregaDosEfeitos}: paused, or the
 * backlog of a pause still draining), the batch's outbox rows are not sent: they stay unsent in the
 * outbox, committed, which is what the paced drain sends from, in order. The position moves past
 * them all the same (the table is the durable record of the work, so no WAL is kept for a pause),
 * and the batch's inbox rows go to {@code loja.eventos} as always.
 */
class ConsumidorDeMudancas
    implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {

  private final FormatoDasMensagens formato;
  private final EnviadorDeMensagens enviador;
  private final RegistroDeEnvios registro;
  private final RegistroDeMortos mortos;
  private final BooleanSupplier parando;
  private final BooleanSupplier vigente;
  private final EntregaDosEfeitos entrega;

  ConsumidorDeMudancas(
      FormatoDasMensagens formato,
      EnviadorDeMensagens enviador,
      RegistroDeEnvios registro,
      RegistroDeMortos mortos,
      BooleanSupplier parando,
      BooleanSupplier vigente,
      EntregaDosEfeitos entrega) {
    this.formato = formato;
    this.enviador = enviador;
    this.registro = registro;
    this.mortos = mortos;
    this.parando = parando;
    this.vigente = vigente;
    this.entrega = entrega;
  }

  @Override
  public void handleBatch(
      List<RecordChangeEvent<SourceRecord>> mudancas,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    if (!podeEnviar()) {
      // The fence: an engine being stopped, or whose lease was not proven lately (another relay
      // may hold it by now), sends nothing; the batch comes again to whoever streams next.
      throw new FalhaAoPublicarException(
          "not sending a batch: the engine is stopping or its lease was not proven lately", null);
    }
    // Decided once for the batch, after its rows arrived (they are all committed by now).
    boolean efeitosAoVivo = entrega.modoDoLote() == ModoDaEntrega.AO_VIVO;
    List<Mensagem> mensagens = new ArrayList<>(mudancas.size());
    List<Morto> ilegiveis = new ArrayList<>();
    for (RecordChangeEvent<SourceRecord> mudanca : mudancas) {
      if (!efeitosAoVivo && formato.doOutbox(mudanca.record())) {
        continue; // left unsent in the outbox: the drain sends it, in its order, at its pace
      }
      Optional<Mensagem> mensagem;
      try {
        mensagem = formato.daMudanca(mudanca.record());
      } catch (RuntimeException e) {
        Throwable daLinha = FalhasDaLinha.daLinha(e);
        Optional<OrigemDaLinha> origem = formato.origem(mudanca.record());
        if (daLinha == null || origem.isEmpty()) {
          throw e;
        }
        ilegiveis.add(Morto.de(origem.get(), e));
        continue;
      }
      mensagem.ifPresent(mensagens::add);
    }
    List<Morto> recusadas = enviador.enviarTodas(mensagens, Via.CDC, () -> !podeEnviar());
    // Committed before anything below: if marking fails, the batch comes again and the rows are
    // dead-lettered again (one open row each), never skipped.
    mortos.registrar(ilegiveis, Via.CDC);
    mortos.registrar(recusadas, Via.CDC);
    List<ChaveDoEfeito> efeitos = new ArrayList<>();
    for (Mensagem mensagem : mensagens) {
      if (mensagem.efeito() != null
          && recusadas.stream().noneMatch(m -> m.origem() == mensagem.origem())) {
        efeitos.add(mensagem.efeito());
      }
    }
    registro.marcar(efeitos);
    for (RecordChangeEvent<SourceRecord> mudanca : mudancas) {
      committer.markProcessed(mudanca);
    }
    committer.markBatchFinished();
  }

  private boolean podeEnviar() {
    return !parando.getAsBoolean() && vigente.getAsBoolean();
  }
}
