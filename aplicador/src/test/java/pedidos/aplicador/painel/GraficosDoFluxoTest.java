package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.infra.InfraLocal;

/**
 * The flow charts in a real headless browser (Debian's chromium), checked on the screenshot's
 * pixels: each series' colour is drawn inside its chart's plot area exactly where the minutes with
 * data fall in the window, higher where the values are higher, and nowhere when the window has no
 * data.
 */
@Tag("todas-as-versoes-do-postgres")
class GraficosDoFluxoTest extends ContextoWebDoPainel {

  /** The plot area's border in fluxo.js. */
  private static final int QUADRO = 0xc4cad4;

  /** The series' colours in fluxo.js, each used for nothing else. */
  private static final Map<String, Integer> SERIES =
      Map.of(
          "recebidos", 0x1f77b4,
          "aplicados", 0x2ca02c,
          "publicados", 0xff7f0e,
          "p50", 0x9467bd,
          "p99", 0xd62728,
          "pendentes", 0x8c564b,
          "idade", 0xe377c2);

  // A window of its own, far from the minutes other tests (and the clock) write.
  private static final Instant FIM = Instant.parse("2099-06-01T12:00:00Z");
  private static final int MINUTOS = 180;
  private static final Instant PRIMEIRO_COM_DADOS = Instant.parse("2099-06-01T10:00:00Z");
  private static final int MINUTOS_COM_DADOS = 60;

  @Test
  void osGraficosDesenhamOsDadosOndeElesEstaoENadaNumaJanelaVazia(@TempDir Path pasta)
      throws Exception {
    JdbcClient dono = JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource());
    dono.sql("DELETE FROM fluxo_por_minuto WHERE minuto >= ? AND minuto <= ?")
        .params(em(FIM.minus(Duration.ofDays(1))), em(FIM))
        .update();
    for (int i = 0; i < MINUTOS_COM_DADOS; i++) {
      boolean segundaMetade = i >= MINUTOS_COM_DADOS / 2;
      // Apply times: most within 5 ms, one in a hundred up to 250 ms: p50 low, p99 high.
      dono.sql(
              """
              INSERT INTO fluxo_por_minuto (minuto, recebidos, aplicados, publicados, aplicacao_ms,
                                            pendentes, pendente_idade_s)
              VALUES (?, ?, ?, ?, CAST(? AS bigint[]), ?, ?)
              """)
          .params(
              em(PRIMEIRO_COM_DADOS.plus(Duration.ofMinutes(i))),
              // Apart from each other, so that no line hides another.
              segundaMetade ? 600 : 100,
              segundaMetade ? 450 : 60,
              segundaMetade ? 300 : 30,
              "{0,10,60,90,95,97,98,100,100,100,100,100,100,100,100}",
              segundaMetade ? 5000 : 10,
              segundaMetade ? 240.0 : 3.0)
          .update();
    }

    BufferedImage comDados = fotografar(pasta.resolve("com-dados"), FIM);
    List<int[]> quadros = quadros(comDados);
    assertThat(quadros).as("four plot areas").hasSize(4);
    double inicio =
        (Duration.between(FIM, PRIMEIRO_COM_DADOS).toMinutes() + MINUTOS - 1 + 0.5) / MINUTOS;
    double fim = inicio + (MINUTOS_COM_DADOS - 1.0) / MINUTOS;
    for (var serie : SERIES.entrySet()) {
      Desenho desenho = desenho(comDados, quadros, serie.getValue());
      assertThat(desenho.pixels()).as("%s drawn", serie.getKey()).isGreaterThan(50);
      assertThat(desenho.de())
          .as("%s starts at the first minute with data", serie.getKey())
          .isCloseTo(inicio, org.assertj.core.data.Offset.offset(0.02));
      assertThat(desenho.ate())
          .as("%s ends at the last minute with data", serie.getKey())
          .isCloseTo(fim, org.assertj.core.data.Offset.offset(0.02));
    }
    for (String crescente : List.of("recebidos", "aplicados", "publicados", "pendentes", "idade")) {
      Desenho desenho = desenho(comDados, quadros, SERIES.get(crescente));
      assertThat(desenho.alturaNoFim())
          .as("%s: the second half's values are higher, drawn higher", crescente)
          .isGreaterThan(desenho.alturaNoInicio() + 0.2);
    }
    assertThat(desenho(comDados, quadros, SERIES.get("p99")).alturaNoInicio())
        .as("p99 above p50")
        .isGreaterThan(desenho(comDados, quadros, SERIES.get("p50")).alturaNoInicio() + 0.3);

    // The same page on a window without data: the plot areas are there, nothing in them. This is
    // what the checks above tell apart, so they cannot pass on an empty chart.
    BufferedImage vazio = fotografar(pasta.resolve("vazio"), FIM.minus(Duration.ofHours(6)));
    assertThat(quadros(vazio)).hasSize(4);
    for (var serie : SERIES.entrySet()) {
      assertThat(desenho(vazio, quadros(vazio), serie.getValue()).pixels())
          .as("%s in an empty window", serie.getKey())
          .isZero();
    }
  }

  /**
   * Where one colour is drawn inside the plot areas: its pixels, and its horizontal extent and its
   * mean height at either end, as fractions of the area it is in (0 the left or the bottom edge).
   */
  record Desenho(int pixels, double de, double ate, double alturaNoInicio, double alturaNoFim) {}

  private static Desenho desenho(BufferedImage foto, List<int[]> quadros, int cor) {
    int pixels = 0;
    int[] dono = null;
    int minX = Integer.MAX_VALUE;
    int maxX = Integer.MIN_VALUE;
    List<int[]> pontos = new ArrayList<>();
    for (int[] q : quadros) {
      for (int y = q[1] + 1; y < q[3]; y++) {
        for (int x = q[0] + 1; x < q[2]; x++) {
          if ((foto.getRGB(x, y) & 0xffffff) == cor) {
            assertThat(dono == null || dono == q).as("one colour, one chart").isTrue();
            dono = q;
            pixels++;
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            pontos.add(new int[] {x, y});
          }
        }
      }
    }
    if (dono == null) {
      return new Desenho(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    int[] q = dono;
    double largura = q[2] - q[0];
    double altura = q[3] - q[1];
    int quarto = (maxX - minX) / 4;
    int limiteEsquerdo = minX + quarto;
    int limiteDireito = maxX - quarto;
    return new Desenho(
        pixels,
        (minX - q[0]) / largura,
        (maxX - q[0]) / largura,
        pontos.stream()
            .filter(p -> p[0] <= limiteEsquerdo)
            .mapToDouble(p -> (q[3] - p[1]) / altura)
            .average()
            .orElse(Double.NaN),
        pontos.stream()
            .filter(p -> p[0] >= limiteDireito)
            .mapToDouble(p -> (q[3] - p[1]) / altura)
            .average()
            .orElse(Double.NaN));
  }

  /** The plot areas' borders: {left, top, right, bottom} of each, found by their colour. */
  private static List<int[]> quadros(BufferedImage foto) {
    List<int[]> quadros = new ArrayList<>();
    for (int y = 1; y < foto.getHeight() - 1; y++) {
      for (int x = 1; x < foto.getWidth() - 1; x++) {
        if (cor(foto, x, y) == QUADRO
            && cor(foto, x - 1, y) != QUADRO
            && cor(foto, x, y - 1) != QUADRO
            && cor(foto, x + 1, y) == QUADRO
            && cor(foto, x, y + 1) == QUADRO) {
          int direita = x;
          while (direita + 1 < foto.getWidth() && cor(foto, direita + 1, y) == QUADRO) {
            direita++;
          }
          int baixo = y;
          while (baixo + 1 < foto.getHeight() && cor(foto, x, baixo + 1) == QUADRO) {
            baixo++;
          }
          if (direita - x > 100 && baixo - y > 50) {
            quadros.add(new int[] {x, y, direita, baixo});
          }
        }
      }
    }
    return quadros;
  }

  private static int cor(BufferedImage foto, int x, int y) {
    return foto.getRGB(x, y) & 0xffffff;
  }

  private BufferedImage fotografar(Path pasta, Instant ate)
      throws IOException, InterruptedException {
    // Kept in target/ to look at when a check fails.
    Path foto = Path.of("target", "graficos-do-fluxo-" + pasta.getFileName() + ".png");
    // The browser logs in with the credentials in the URL, as through its prompt.
    ChromiumSemCabeca.fotografar(
        comLogin("/status.html?fluxo-minutos=" + MINUTOS + "&fluxo-ate=" + ate), pasta, foto, 2600);
    return ImageIO.read(foto.toFile());
  }

  private static OffsetDateTime em(Instant instante) {
    return OffsetDateTime.ofInstant(instante, ZoneOffset.UTC);
  }
}
