package pedidos.aplicador.replay;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.CaixaDeEntrada;
import pedidos.aplicador.aplicacao.PosicaoNoTopico;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.ouvinte.RegistroNaoAutenticadoException;
import pedidos.aplicador.ouvinte.VerificadorDeRegistros;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEvento;
import pedidos.contrato.RegistroIlegivelException;
import pedidos.dominio.ModoDeAplicacao;

/**
 * Replays partitions of {@code loja.eventos} to repair state, after a restore or a fix. Its own
 * consumer, assigned and never committing, leaves the live group alone. Each record stores the
 * event if the inbox lacks it and re-derives the order's state from all of its facts ({@link
 * ModoDeAplicacao#FORCADO}): a correct state stays as it is, and the outbox's key keeps every
 * effect once, however many times anything is replayed. A record without the relay's valid
 * signature is reported and skipped, exactly as the listener refuses it.
 */
@Component
public class Replay {

  private final ConsumerFactory<String, String> consumidores;
  private final CaixaDeEntrada caixaDeEntrada;
  private final AplicadorDeEventos aplicador;
  private final TransactionTemplate transacao;
  private final VerificadorDeRegistros verificador;
  private final String topicoConfigurado;

  Replay(
      AplicadorProperties propriedades,
      ConsumerFactory<String, String> consumidores,
      CaixaDeEntrada caixaDeEntrada,
      AplicadorDeEventos aplicador,
      TransactionTemplate transacao,
      VerificadorDeRegistros verificador) {
    this.verificador = verificador;
    this.topicoConfigurado = propriedades.topico();
    this.consumidores = consumidores;
    this.caixaDeEntrada = caixaDeEntrada;
    this.aplicador = aplicador;
    this.transacao = transacao;
  }

  public ResumoDoReplay executar(OpcoesDeReplay opcoes, PrintWriter saida) {
    String topico = opcoes.topico() != null ? opcoes.topico() : topicoConfigurado;
    Properties sobrescritas = new Properties();
    sobrescritas.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    sobrescritas.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
    try (Consumer<String, String> consumidor =
        consumidores.createConsumer(null, "replay", null, sobrescritas)) {
      List<TopicPartition> particoes =
          consumidor.partitionsFor(topico).stream()
              .filter(
                  info ->
                      opcoes.particoes().isEmpty() || opcoes.particoes().contains(info.partition()))
              .map(info -> new TopicPartition(info.topic(), info.partition()))
              .toList();
      consumidor.assign(particoes);
      Map<TopicPartition, Long> inicios = inicios(consumidor, particoes, opcoes);
      Map<TopicPartition, Long> fins = fins(consumidor, particoes, opcoes);
      inicios.forEach(consumidor::seek);
      saida.printf("replaying %s: %s%n", topico, faixas(inicios, fins));

      long lidos = 0;
      long restaurados = 0;
      long aplicados = 0;
      long inaplicaveis = 0;
      long naoAutenticados = 0;
      while (!terminou(consumidor, particoes, fins)) {
        for (ConsumerRecord<String, String> registro : consumidor.poll(Duration.ofMillis(500))) {
          TopicPartition particao = new TopicPartition(registro.topic(), registro.partition());
          if (registro.offset() >= fins.get(particao)) {
            continue;
          }
          lidos++;
          try {
            verificador.verificar(registro, "replay");
          } catch (RegistroNaoAutenticadoException e) {
            naoAutenticados++;
            saida.printf(
                "refused %s-%d@%d: %s%n",
                registro.topic(), registro.partition(), registro.offset(), e.getMessage());
            continue;
          }
          RegistroDeEvento evento;
          try {
            evento = FormatoDosRegistros.lerEvento(registro.value());
          } catch (RegistroIlegivelException e) {
            inaplicaveis++;
            saida.printf(
                "skipped %s-%d@%d: %s%n",
                registro.topic(), registro.partition(), registro.offset(), e.getMessage());
            continue;
          }
          boolean[] restaurado = new boolean[1];
          var aplicado =
              transacao.execute(
                  status -> {
                    // Stored here, to count what came back; the apply then only reads it.
                    restaurado[0] = caixaDeEntrada.guardarSeAusente(evento);
                    return aplicador.aplicarNaTransacao(
                        evento.eventoId(),
                        new PosicaoNoTopico(registro.partition(), registro.offset()),
                        ModoDeAplicacao.FORCADO);
                  });
          restaurados += restaurado[0] ? 1 : 0;
          aplicados += aplicado.isPresent() ? 1 : 0;
        }
        saida.printf(
            "read %d, restored %d, applied %d, unapplicable %d, unsigned or wrongly signed %d%n",
            lidos, restaurados, aplicados, inaplicaveis, naoAutenticados);
      }
      return new ResumoDoReplay(lidos, restaurados, aplicados, inaplicaveis, naoAutenticados);
    }
  }

  private static Map<TopicPartition, Long> inicios(
      Consumer<?, ?> consumidor, List<TopicPartition> particoes, OpcoesDeReplay opcoes) {
    Map<TopicPartition, Long> primeiros = consumidor.beginningOffsets(particoes);
    Map<TopicPartition, Long> inicios = new HashMap<>(primeiros);
    if (opcoes.deOffset() != null) {
      inicios.replaceAll((particao, primeiro) -> Math.max(primeiro, opcoes.deOffset()));
    } else if (opcoes.deInstante() != null) {
      inicios.putAll(porInstante(consumidor, particoes, opcoes.deInstante().toEpochMilli()));
    }
    return inicios;
  }

  private static Map<TopicPartition, Long> fins(
      Consumer<?, ?> consumidor, List<TopicPartition> particoes, OpcoesDeReplay opcoes) {
    Map<TopicPartition, Long> ultimos = consumidor.endOffsets(particoes);
    Map<TopicPartition, Long> fins = new HashMap<>(ultimos);
    if (opcoes.ateOffset() != null) {
      fins.replaceAll((particao, fim) -> Math.min(fim, opcoes.ateOffset() + 1));
    } else if (opcoes.ateInstante() != null) {
      fins.putAll(porInstante(consumidor, particoes, opcoes.ateInstante().toEpochMilli()));
    }
    return fins;
  }

  /** The first offset at or after the instant; the end of the partition when there is none. */
  private static Map<TopicPartition, Long> porInstante(
      Consumer<?, ?> consumidor, List<TopicPartition> particoes, long instante) {
    Map<TopicPartition, Long> consulta = new HashMap<>();
    particoes.forEach(particao -> consulta.put(particao, instante));
    Map<TopicPartition, OffsetAndTimestamp> achados = consumidor.offsetsForTimes(consulta);
    Map<TopicPartition, Long> fins = consumidor.endOffsets(particoes);
    Map<TopicPartition, Long> offsets = new HashMap<>();
    for (TopicPartition particao : particoes) {
      OffsetAndTimestamp achado = achados.get(particao);
      offsets.put(particao, achado == null ? fins.get(particao) : achado.offset());
    }
    return offsets;
  }

  private static boolean terminou(
      Consumer<?, ?> consumidor, List<TopicPartition> particoes, Map<TopicPartition, Long> fins) {
    for (TopicPartition particao : particoes) {
      if (consumidor.position(particao) < fins.get(particao)) {
        return false;
      }
    }
    return true;
  }

  private static String faixas(Map<TopicPartition, Long> inicios, Map<TopicPartition, Long> fins) {
    StringBuilder texto = new StringBuilder();
    inicios.keySet().stream()
        .sorted((a, b) -> Integer.compare(a.partition(), b.partition()))
        .forEach(
            particao ->
                texto
                    .append(particao.partition())
                    .append(":[")
                    .append(inicios.get(particao))
                    .append(",")
                    .append(fins.get(particao))
                    .append(") "));
    return texto.toString().trim();
  }
}
