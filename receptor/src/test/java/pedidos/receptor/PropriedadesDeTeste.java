package pedidos.receptor;

import java.time.Duration;
import java.util.List;
import org.springframework.util.unit.DataSize;
import pedidos.gestao.Ops;

/**
 * {@link ReceptorProperties} as the tests without Spring build them: the defaults of {@code
 * application.yml} and the record, with what a test varies.
 */
public final class PropriedadesDeTeste {

  public static final ReceptorProperties.Assinatura SO_LOJA =
      new ReceptorProperties.Assinatura(List.of(EsquemaDeAssinatura.LOJA), Duration.ofMinutes(5));
  public static final ReceptorProperties.Assinatura AMBOS =
      new ReceptorProperties.Assinatura(
          List.of(EsquemaDeAssinatura.LOJA, EsquemaDeAssinatura.STANDARD_WEBHOOKS),
          Duration.ofMinutes(5));
  public static final ReceptorProperties.LimitePorOrigem SEM_LIMITE =
      new ReceptorProperties.LimitePorOrigem(0, 50, 10_000);

  private PropriedadesDeTeste() {}

  public static ReceptorProperties propriedades(
      ReceptorProperties.Assinatura assinatura, String... segredos) {
    return new ReceptorProperties(
        List.of(segredos),
        DataSize.ofMegabytes(1),
        DataSize.ofMegabytes(128),
        200,
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        new ReceptorProperties.Gravacao(
            ReceptorProperties.Modo.GRUPO, 128, 2, Duration.ZERO, 1000, DataSize.ofMegabytes(64)),
        assinatura,
        SEM_LIMITE,
        new Ops("", ""));
  }

  /** The store's signature only, and this way of writing, with bodies of up to {@code corpo}. */
  public static ReceptorProperties daGravacao(
      ReceptorProperties.Gravacao gravacao, DataSize corpo) {
    return new ReceptorProperties(
        List.of(Entregas.SEGREDO),
        corpo,
        DataSize.ofMegabytes(128),
        200,
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        gravacao,
        SO_LOJA,
        SEM_LIMITE,
        new Ops("", ""));
  }
}
