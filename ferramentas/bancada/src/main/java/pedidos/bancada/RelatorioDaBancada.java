package pedidos.bancada;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import pedidos.bancada.CpuDosProcessos.Amostra;
import pedidos.bancada.Medidas.Percentis;

/** The benchmark's results as a Markdown section: the windows, their 10 s slices, CPU per event. */
final class RelatorioDaBancada {

  private static final List<String> PROCESSOS =
      List.of("receptor", "relay", "aplicador", "postgres", "kafka", "carga");
  private static final List<String> TITULOS =
      List.of(
          "receptor", "relay", "aplicador", "PostgreSQL (all backends)", "Kafka", "load generator");

  private final OpcoesDaBancada opcoes;
  private final String comandoDosServicos;
  private final Instant inicio;
  private final long partidaMs;
  private final long atePrimeiroEventoMs;
  private final Amostra naPartida;
  private final Map<Integer, Amostra> amostras;
  private final Amostra fimDaCarga;
  private final long hz;
  private final List<Medidas> eventos;
  private final long inicioUs;
  private final List<String> saidaDaCarga;
  private final StringBuilder texto = new StringBuilder();

  RelatorioDaBancada(
      OpcoesDaBancada opcoes,
      String comandoDosServicos,
      Instant inicio,
      long partidaMs,
      long atePrimeiroEventoMs,
      Amostra naPartida,
      Map<Integer, Amostra> amostras,
      Amostra fimDaCarga,
      long hz,
      List<Medidas> eventos,
      long inicioUs,
      List<String> saidaDaCarga) {
    this.opcoes = opcoes;
    this.comandoDosServicos = comandoDosServicos;
    this.inicio = inicio;
    this.partidaMs = partidaMs;
    this.atePrimeiroEventoMs = atePrimeiroEventoMs;
    this.naPartida = naPartida;
    this.amostras = amostras;
    this.fimDaCarga = fimDaCarga;
    this.hz = hz;
    this.eventos = eventos;
    this.inicioUs = inicioUs;
    this.saidaDaCarga = saidaDaCarga;
  }

  String texto() {
    int n = Runtime.getRuntime().availableProcessors();
    linha("## Cold start and warm, CPU per event (`ferramentas/bancada`)");
    linha("");
    linha("Produced by the Java driver `pedidos.bancada.BancadaPontaAPonta`; the exact command:");
    linha("");
    linha("```sh");
    linha(opcoes.comando());
    linha("```");
    linha("");
    linha(
        "Run of %s, %d s in all. Machine: %d cores, shared with other work: **load average %s when"
            + " the services were ready, %s at the end of the load** (1, 5, 15 min). Single run:"
            + " expect run-to-run spread.",
        inicio.truncatedTo(ChronoUnit.SECONDS),
        Duration.between(inicio, Instant.now()).toSeconds(),
        n,
        naPartida.cargaMedia(),
        fimDaCarga.cargaMedia());
    linha("");
    linha(
        "- Services: `%s`; PostgreSQL %s (infra-local's settings: fsync and synchronous_commit"
            + " on, wal_level=logical; plus track_commit_timestamp=on, shared_buffers=512MB,"
            + " max_wal_size=8GB, checkpoint_timeout=30min); Kafka: infra-local's KRaft broker"
            + " (SASL/SCRAM, ACLs) in its own JVM; the load generator in its own JVM, open loop,"
            + " %.0f events/s of fresh signed orders, never paused.",
        comandoDosServicos, opcoes.postgres(), opcoes.taxa());
    linha(
        "- Start-up: the relay and the aplicador, then the receptor, healthy %.1f s after the relay"
            + " was started; the first event %d ms after that. CPU each used to get there, ms:"
            + " receptor %s, relay %s, aplicador %s.",
        partidaMs / 1000.0,
        atePrimeiroEventoMs,
        ms(naPartida.ticks().get("receptor")),
        ms(naPartida.ticks().get("relay")),
        ms(naPartida.ticks().get("aplicador")));
    linha(
        opcoes.antes() > 0
            ? "- A deployment, not a first start: the services had run "
                + opcoes.antes()
                + " s under the same load and were stopped; PostgreSQL and Kafka kept running, so"
                + " they, the relay's slot and the aplicador's committed offsets are warm."
            : "- A first start: PostgreSQL, Kafka and the services all start fresh (`--antes S`"
                + " measures a deployment instead: the services restarted, the rest warm).");
    linha(
        "- Windows, from the first event: cold 0–%d s, warm-up %d s, warm %d–%d s.",
        opcoes.frio(), opcoes.aquecimento(), opcoes.frio() + opcoes.aquecimento(), opcoes.total());
    linha("");
    linha("### Latency");
    linha("");
    linha(
        "Inbox insert (`recebido_em`) → apply (`aplicado_em`, the apply transaction's start) and →"
            + " the apply's commit (`pg_xact_commit_timestamp`), PostgreSQL's clock both ends; the"
            + " receptor's answer (send → 200) as the load generator saw it. ms.");
    linha("");
    linha(
        "| window | sent / 200 / applied | applied in the window, events/s | inbox → aplicado_em p50 |"
            + " p99 | max | inbox → commit p50 | p99 | max | receptor answer p50 | p99 |");
    linha("|---|---|---|---|---|---|---|---|---|---|---|");
    linhaDeLatencia("**cold** (first " + opcoes.frio() + " s)", 0, opcoes.frio());
    int q0 = opcoes.frio() + opcoes.aquecimento();
    linhaDeLatencia("**warm** (" + opcoes.quente() + " s)", q0, opcoes.total());
    linha("");
    linha(
        "Where that time went: inbox insert → the relay's `send()` of the row (the Kafka record's"
            + " CreateTime: WAL decoding, Debezium's batching, the relay's conversion) and that"
            + " `send()` → `aplicado_em` (producer batching and acknowledgement, the broker, the"
            + " listener's fetch and its queue). ms; the record found by the partition and offset"
            + " the aplicador stored.");
    linha("");
    linha(
        "| window | events with their record | inbox → relay send p50 | p99 | max |"
            + " relay send → aplicado_em p50 | p99 | max |");
    linha("|---|---|---|---|---|---|---|---|");
    linhaDasPartes("**cold**", 0, opcoes.frio());
    linhaDasPartes("**warm**", q0, opcoes.total());
    for (int s = 0; s < opcoes.frio(); s += 10) {
      int fim = Math.min(opcoes.frio(), s + 10);
      linhaDasPartes("cold " + s + "–" + fim + " s", s, fim);
    }
    // The first seconds second by second: how long the start's backlog lasts.
    for (int s = 0; s < Math.min(10, opcoes.frio()); s++) {
      linhaDasPartes("cold second " + s + "–" + (s + 1), s, s + 1);
    }
    linha("");
    linha("### CPU per event, ms (all threads of each process; PostgreSQL: every backend)");
    linha("");
    linha(
        "| window | "
            + String.join(" | ", TITULOS)
            + " | machine busy, % of one core | of which steal | load average at the end |");
    linha("|---|---|---|---|---|---|---|---|---|---|");
    linhaDeCpu("**cold**", 0, opcoes.frio());
    linhaDeCpu("**warm**", q0, opcoes.total());
    linha("");
    linha("### Each 10 s");
    linha("");
    linha(
        "| window | seconds | events | inbox → aplicado_em p50 | p99 | max | receptor p99 | CPU ms/event:"
            + " receptor | relay | aplicador | PostgreSQL | Kafka | busy % | steal % |");
    linha("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    fatias("cold", 0, opcoes.frio());
    fatias("warm", q0, opcoes.total());
    linha("");
    linha("Load generator's own summary:");
    linha("");
    linha("```");
    saidaDaCarga.stream()
        .filter(
            l ->
                l.startsWith("measured:")
                    || l.contains("failed at the connection")
                    || l.contains("no answer"))
        .forEach(this::linha);
    linha("```");
    return texto.toString();
  }

  private List<Medidas> entre(int de, int ate) {
    return Medidas.agendadosEntre(eventos, inicioUs, de, ate);
  }

  private void linhaDeLatencia(String titulo, int de, int ate) {
    List<Medidas> janela = entre(de, ate);
    Percentis aplicado = Percentis.de(janela, Medidas::entradaAteAplicado);
    Percentis commit = Percentis.de(janela, Medidas::entradaAteCommit);
    Percentis receptor = Percentis.de(janela, Medidas::respostaDoReceptor);
    linha(
        "| %s | %d / %d / %d | %.0f | %s | **%s** | %s | %s | %s | %s | %s | %s |",
        titulo,
        janela.size(),
        janela.stream().filter(m -> m.status() == 200).count(),
        janela.stream().filter(Medidas::aplicado).count(),
        aplicadosPorSegundo(de, ate),
        f(aplicado.p50()),
        f(aplicado.p99()),
        f(aplicado.max()),
        f(commit.p50()),
        f(commit.p99()),
        f(commit.max()),
        f(receptor.p50()),
        f(receptor.p99()));
  }

  private void linhaDasPartes(String titulo, int de, int ate) {
    List<Medidas> janela = entre(de, ate);
    Percentis relay = Percentis.de(janela, Medidas::entradaAtePublicado);
    Percentis resto = Percentis.de(janela, Medidas::publicadoAteAplicado);
    linha(
        "| %s | %d | %s | %s | %s | %s | %s | %s |",
        titulo,
        relay.n(),
        f(relay.p50()),
        f(relay.p99()),
        f(relay.max()),
        f(resto.p50()),
        f(resto.p99()),
        f(resto.max()));
  }

  /** Whether the system kept up: every event applied in the window, whenever it was sent. */
  private double aplicadosPorSegundo(int de, int ate) {
    long a = inicioUs + de * 1_000_000L;
    long b = inicioUs + ate * 1_000_000L;
    long n =
        eventos.stream()
            .filter(m -> m.aplicado() && m.aplicadoUs() >= a && m.aplicadoUs() < b)
            .count();
    return n / (double) (ate - de);
  }

  private void linhaDeCpu(String titulo, int de, int ate) {
    Amostra a = amostras.get(de);
    Amostra b = amostras.get(ate);
    int eventosNaJanela = entre(de, ate).size();
    StringBuilder celulas = new StringBuilder();
    for (String processo : PROCESSOS) {
      celulas.append(" | ").append(porEvento(a, b, processo, eventosNaJanela));
    }
    linha("| %s%s | %s | %s | %s |", titulo, celulas, ocupada(a, b), roubo(a, b), b.cargaMedia());
  }

  private void fatias(String janela, int de, int ate) {
    for (int s = de; s < ate; s += 10) {
      int fim = Math.min(ate, s + 10);
      Amostra a = amostras.get(s);
      Amostra b = amostras.get(fim);
      List<Medidas> fatia = entre(s, fim);
      Percentis aplicado = Percentis.de(fatia, Medidas::entradaAteAplicado);
      Percentis receptor = Percentis.de(fatia, Medidas::respostaDoReceptor);
      linha(
          "| %s | %d–%d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
          janela,
          s,
          fim,
          fatia.size(),
          f(aplicado.p50()),
          f(aplicado.p99()),
          f(aplicado.max()),
          f(receptor.p99()),
          porEvento(a, b, "receptor", fatia.size()),
          porEvento(a, b, "relay", fatia.size()),
          porEvento(a, b, "aplicador", fatia.size()),
          porEvento(a, b, "postgres", fatia.size()),
          porEvento(a, b, "kafka", fatia.size()),
          ocupada(a, b),
          roubo(a, b));
    }
  }

  private String porEvento(Amostra a, Amostra b, String processo, int eventosNaJanela) {
    if (a == null || b == null || eventosNaJanela == 0) {
      return "-";
    }
    long ticks = b.ticks().getOrDefault(processo, 0L) - a.ticks().getOrDefault(processo, 0L);
    return String.format(Locale.ROOT, "%.3f", 1000.0 * ticks / hz / eventosNaJanela);
  }

  private String ocupada(Amostra a, Amostra b) {
    int n = Runtime.getRuntime().availableProcessors();
    long total = b.total() - a.total();
    return total <= 0
        ? "-"
        : String.format(Locale.ROOT, "%.0f", 100.0 * n * (b.ocupada() - a.ocupada()) / total);
  }

  private String roubo(Amostra a, Amostra b) {
    int n = Runtime.getRuntime().availableProcessors();
    long total = b.total() - a.total();
    return total <= 0
        ? "-"
        : String.format(Locale.ROOT, "%.0f", 100.0 * n * (b.roubo() - a.roubo()) / total);
  }

  private String ms(Long ticks) {
    return ticks == null ? "-" : String.format(Locale.ROOT, "%.0f", 1000.0 * ticks / hz);
  }

  private static String f(double ms) {
    return Double.isNaN(ms) ? "-" : String.format(Locale.ROOT, "%.1f", ms);
  }

  private void linha(String formato, Object... valores) {
    linha(texto, formato, valores);
  }

  /** One line of a Markdown section; formatted only when there are values to put in it. */
  static void linha(StringBuilder texto, String formato, Object... valores) {
    texto.append(valores.length == 0 ? formato : String.format(Locale.ROOT, formato, valores));
    texto.append('\n');
  }
}
