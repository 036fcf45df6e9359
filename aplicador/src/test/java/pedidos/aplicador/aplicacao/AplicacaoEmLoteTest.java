package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.ModoDeAplicacao;

/**
 * The listener's sub-batches applied together ({@link
 * AplicadorDeEventos#guardarEAplicarJuntosNaTransacao}) leave exactly what applying their records
 * one transaction after another leaves, on the real PostgreSQL: the orders, the outbox with each
 * effect's snapshot, the inbox's verdicts, reasons and positions, the lost-webhook records, and the
 * same {@link EventoAplicado}s.
 *
 * <p>Generated examples, each twice over the same facts under two prefixes: random histories of a
 * few orders (statuses in any order, so terminal regressions; versions by sequence with ties or by
 * instant within a few milliseconds; totals and emails that come and go; ignored types, unreadable
 * instants and totals), some already in the inbox and some of those applied or given up on before,
 * an order's row existing before, facts of the store's API, every webhook delivered one to three
 * times, shuffled, cut into sub-batches of one to seven records. The seed of a failing example is
 * in the message.
 */
class AplicacaoEmLoteTest extends ContextoDoAplicador {

  private static final int EXEMPLOS = 60;
  private static final Instant BASE = Instant.parse("2026-11-29T12:00:00Z");
  private static final List<String> TIPOS =
      List.of("order.created", "order.paid", "order.shipped", "order.canceled", "order.refunded");
  private static final List<String> STATUS_DA_API =
      List.of("open", "paid", "shipped", "canceled", "refunded");

  @Autowired AplicadorDeEventos aplicador;
  @Autowired JdbcClient jdbc;
  @Autowired TransactionTemplate transacao;

  private final String execucao = UUID.randomUUID().toString().substring(0, 8);

  @Test
  void loteDeixaOQueUmaTransacaoPorRegistroDeixaria() {
    long sementeInicial = new Random().nextLong();
    for (int exemplo = 0; exemplo < EXEMPLOS; exemplo++) {
      long semente = sementeInicial + exemplo;
      Exemplo gerado = gerar(new Random(semente));
      String juntos = execucao + "-" + exemplo + "-j-";
      String sozinhos = execucao + "-" + exemplo + "-s-";

      List<String> emLote = gerado.aplicarEmLote(juntos);
      List<String> umAUm = gerado.aplicarUmAUm(sozinhos);

      String comoFalhar = "seed " + semente + ", sub-batches " + gerado.lotes;
      assertThat(emLote).as("what each record did; " + comoFalhar).isEqualTo(umAUm);
      assertThat(tabelas(juntos)).as("the tables; " + comoFalhar).isEqualTo(tabelas(sozinhos));
    }
  }

  /** One generated example: its events, how it starts, its records, and their sub-batches. */
  private final class Exemplo {
    /** An event, written with {@code %s} where the world's prefix goes. */
    record Evento(String id, String pedido, String tipo, String payload, Instant recebidoEm) {
      RegistroDeEvento em(String prefixo) {
        return new RegistroDeEvento(
            id.formatted(prefixo),
            pedido.formatted(prefixo),
            tipo,
            payload.formatted(prefixo, prefixo),
            recebidoEm);
      }
    }

    final List<Evento> guardados = new ArrayList<>();
    final List<Evento> aplicadosAntes = new ArrayList<>();
    final List<Evento> falhados = new ArrayList<>();
    final List<Evento> registros = new ArrayList<>();
    final List<Integer> lotes = new ArrayList<>();

    /** The inbox rows and the applies that come before the records, the same in both worlds. */
    private void preparar(String prefixo) {
      for (Evento evento : guardados) {
        RegistroDeEvento e = evento.em(prefixo);
        jdbc.sql(
                """
                INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
                VALUES (?, ?, ?, ?::jsonb, ?)
                """)
            .params(
                e.eventoId(),
                e.recursoId(),
                e.tipo(),
                e.payload(),
                CaixaDeEntrada.instante(e.recebidoEm()))
            .update();
      }
      for (Evento evento : aplicadosAntes) {
        aplicador.aplicar(evento.em(prefixo).eventoId(), ModoDeAplicacao.NORMAL);
      }
      for (Evento evento : falhados) {
        comoAdministrador()
            .sql(
                """
                UPDATE webhook_eventos
                   SET aplicado_em = now(), resultado = 'falha_de_aplicacao', motivo = 'desistiu'
                 WHERE evento_id = ? AND aplicado_em IS NULL
                """)
            .param(evento.em(prefixo).eventoId())
            .update();
      }
    }

    List<String> aplicarEmLote(String prefixo) {
      preparar(prefixo);
      List<String> feitos = new ArrayList<>();
      int inicio = 0;
      for (int tamanho : lotes) {
        List<RegistroNoTopico> lote = new ArrayList<>();
        for (int i = inicio; i < inicio + tamanho; i++) {
          lote.add(new RegistroNoTopico(registros.get(i).em(prefixo), new PosicaoNoTopico(0, i)));
        }
        transacao
            .execute(status -> aplicador.guardarEAplicarJuntosNaTransacao(lote))
            .forEach(feito -> feitos.add(normal(feito, prefixo)));
        inicio += tamanho;
      }
      return feitos;
    }

    List<String> aplicarUmAUm(String prefixo) {
      preparar(prefixo);
      List<String> feitos = new ArrayList<>();
      for (int i = 0; i < registros.size(); i++) {
        RegistroDeEvento evento = registros.get(i).em(prefixo);
        PosicaoNoTopico posicao = new PosicaoNoTopico(0, i);
        Optional<EventoAplicado> feito =
            transacao.execute(
                status ->
                    aplicador.guardarEAplicarNaTransacao(evento, posicao, ModoDeAplicacao.NORMAL));
        feito.ifPresent(f -> feitos.add(normal(f, prefixo)));
      }
      return feitos;
    }
  }

  private Exemplo gerar(Random random) {
    Exemplo exemplo = new Exemplo();
    List<Exemplo.Evento> webhooks = new ArrayList<>();
    List<Exemplo.Evento> daApi = new ArrayList<>();
    int pedidos = 1 + random.nextInt(3);
    int n = 0;
    for (int p = 0; p < pedidos; p++) {
      String pedido = "%sp" + p;
      boolean porSequencia = random.nextInt(3) > 0;
      int quantos = 1 + random.nextInt(5);
      long posicao = 1;
      for (int f = 0; f < quantos; f++) {
        posicao += List.of(0, 0, 1, 1, 2, 7).get(random.nextInt(6)); // 0: ties
        String id = "%se" + n++;
        int status = random.nextInt(TIPOS.size());
        String tipo = random.nextInt(12) == 0 ? "order.updated" : TIPOS.get(status);
        String total = List.of("null", "null", "1000", "2500").get(random.nextInt(4));
        if (random.nextInt(15) == 0) {
          total = "\"muito\"";
        }
        String email = List.of("null", "null", "\"a@loja\"", "\"b@loja\"").get(random.nextInt(4));
        String versao;
        if (random.nextInt(12) == 0) {
          versao = "\"occurred_at\": \"ontem\"";
        } else if (porSequencia) {
          versao = "\"sequence\": " + posicao + ", \"occurred_at\": null";
        } else {
          versao = "\"occurred_at\": \"" + BASE.plusMillis(posicao) + "\"";
        }
        String payload =
            """
            {"id": "%s", "type": "%s", %s, "data": {"id": "%s", "total_cents": %s, "customer_email": %s}}
            """
                .formatted(
                    id.replace("%s", "%1$s"),
                    tipo,
                    versao,
                    pedido.replace("%s", "%2$s"),
                    total,
                    email);
        webhooks.add(
            new Exemplo.Evento(
                id, pedido, tipo, payload, BASE.plusSeconds(n).plusNanos(123_456_000)));
        String apiId = "api:" + pedido + ":s" + posicao + ":";
        if (porSequencia
            && random.nextInt(4) == 0
            // The same status at the same version is the same API fact, stored once.
            && daApi.stream().noneMatch(a -> a.id().startsWith(apiId))) {
          // The store's API telling the same order: sometimes the same fact as this webhook.
          int statusDaApi = random.nextBoolean() ? status : random.nextInt(STATUS_DA_API.size());
          String api = STATUS_DA_API.get(statusDaApi);
          String apiPayload =
              """
              {"id": "%s", "status": "%s", "sequence": %d, "updated_at": "%s", "total_cents": %s}
              """
                  .formatted(
                      pedido.replace("%s", "%1$s"), api, posicao, BASE.plusMillis(posicao), total);
          daApi.add(
              new Exemplo.Evento(
                  apiId + api,
                  pedido,
                  LeitorDeEventos.TIPO_DA_API,
                  apiPayload,
                  BASE.plusSeconds(n)));
        }
      }
    }
    // Before the records: the receptor stored some, the sweep or reconciliation applied some of
    // those, and some were given up on.
    for (Exemplo.Evento evento : webhooks) {
      if (random.nextInt(5) < 2) {
        exemplo.guardados.add(evento);
        int destino = random.nextInt(10);
        if (destino < 5) {
          exemplo.aplicadosAntes.add(evento);
        } else if (destino == 5) {
          exemplo.falhados.add(evento);
        }
      }
    }
    for (Exemplo.Evento evento : daApi) {
      exemplo.guardados.add(evento);
      if (random.nextInt(10) < 7) {
        exemplo.aplicadosAntes.add(evento);
      }
    }
    Collections.shuffle(exemplo.aplicadosAntes, random);
    for (Exemplo.Evento evento : webhooks) {
      for (int copia = random.nextInt(3); copia >= 0; copia--) {
        exemplo.registros.add(evento);
      }
    }
    for (Exemplo.Evento evento : daApi) {
      if (random.nextBoolean()) {
        exemplo.registros.add(evento);
      }
    }
    Collections.shuffle(exemplo.registros, random);
    for (int resta = exemplo.registros.size(); resta > 0; ) {
      int tamanho = Math.min(resta, 1 + random.nextInt(7));
      exemplo.lotes.add(tamanho);
      resta -= tamanho;
    }
    return exemplo;
  }

  private static String normal(EventoAplicado feito, String prefixo) {
    return feito.toString().replace(prefixo, "~");
  }

  /** Every row of the world's orders in the four tables, its prefix replaced. */
  private List<String> tabelas(String prefixo) {
    JdbcClient admin = comoAdministrador();
    List<String> linhas = new ArrayList<>();
    linhas.addAll(
        admin
            .sql(
                """
                SELECT concat_ws(' | ', 'pedidos', id, status, versao_origem, total_centavos,
                                 cliente_email)
                  FROM pedidos WHERE id LIKE ? ORDER BY id
                """)
            .param(prefixo + "%")
            .query(String.class)
            .list());
    linhas.addAll(
        admin
            .sql(
                """
                SELECT concat_ws(' | ', 'outbox', pedido_id, efeito, status, total_centavos,
                                 cliente_email, enviado_em IS NULL)
                  FROM outbox WHERE pedido_id LIKE ? ORDER BY pedido_id, efeito
                """)
            .param(prefixo + "%")
            .query(String.class)
            .list());
    linhas.addAll(
        admin
            .sql(
                """
                SELECT concat_ws(' | ', 'webhook_eventos', evento_id, recurso_id, tipo, payload::text,
                                 recebido_em, aplicado_em IS NOT NULL, resultado,
                                 coalesce(motivo, '-'), coalesce(kafka_particao || '@' || kafka_offset, '-'))
                  FROM webhook_eventos WHERE recurso_id LIKE ? ORDER BY evento_id
                """)
            .param(prefixo + "%")
            .query(String.class)
            .list());
    linhas.addAll(
        admin
            .sql(
                """
                SELECT concat_ws(' | ', 'webhooks_nao_entregues', evento_id, tipo, versao,
                                 sequencia, fato_em, revelado_em,
                                 coalesce(webhook_evento_id, '-'), webhook_recebido_em)
                  FROM webhooks_nao_entregues WHERE pedido_id LIKE ? ORDER BY evento_id
                """)
            .param(prefixo + "%")
            .query(String.class)
            .list());
    return linhas.stream().map(linha -> linha.replace(prefixo, "~")).toList();
  }
}
