package pedidos.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code localhost} in a PKCS12 key store, and a trust store holding
 * only that certificate: what a TLS listener of a local broker serves and what its clients trust.
 * Made with the JDK's own {@code keytool}, since the JDK has no public API to issue a certificate.
 * Valid for two days and named for {@code localhost} and {@code 127.0.0.1}, so clients keep
 * hostname verification on, as in production.
 */
public record CertificadoLocal(Path armazemDeChaves, Path armazemDeConfianca, String senha) {

  /** The stores' type, in the names Kafka's and Spring's properties take. */
  public static final String TIPO = "PKCS12";

  private static final String APELIDO = "broker";

  static CertificadoLocal emitir(Path diretorio) {
    try {
      Files.createDirectories(diretorio);
      String senha = UUID.randomUUID().toString();
      Path chaves = diretorio.resolve("broker.p12");
      Path certificado = diretorio.resolve("broker.crt");
      Path confianca = diretorio.resolve("confianca.p12");
      keytool(
          "-genkeypair",
          "-alias",
          APELIDO,
          "-keyalg",
          "EC",
          "-groupname",
          "secp256r1",
          "-validity",
          "2",
          "-dname",
          "CN=localhost",
          "-ext",
          "SAN=dns:localhost,ip:127.0.0.1",
          "-keystore",
          chaves.toString(),
          "-storetype",
          TIPO,
          "-storepass",
          senha);
      keytool(
          "-exportcert",
          "-rfc",
          "-alias",
          APELIDO,
          "-keystore",
          chaves.toString(),
          "-storetype",
          TIPO,
          "-storepass",
          senha,
          "-file",
          certificado.toString());
      keytool(
          "-importcert",
          "-noprompt",
          "-alias",
          APELIDO,
          "-file",
          certificado.toString(),
          "-keystore",
          confianca.toString(),
          "-storetype",
          TIPO,
          "-storepass",
          senha);
      return new CertificadoLocal(chaves, confianca, senha);
    } catch (IOException e) {
      throw new IllegalStateException("could not issue the local broker's certificate", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while issuing a certificate", e);
    }
  }

  private static void keytool(String... argumentos) throws IOException, InterruptedException {
    List<String> comando = new ArrayList<>();
    comando.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    comando.addAll(List.of(argumentos));
    Process processo = new ProcessBuilder(comando).redirectErrorStream(true).start();
    String saida = new String(processo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!processo.waitFor(60, TimeUnit.SECONDS)) {
      processo.destroyForcibly();
      throw new IOException("keytool " + argumentos[0] + " did not finish in 60 s");
    }
    if (processo.exitValue() != 0) {
      throw new IOException("keytool " + argumentos[0] + " failed: " + saida.strip());
    }
  }
}
