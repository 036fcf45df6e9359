package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The compose stack creates the roles in its own init script (the official image runs shell, not
 * Java); it must create the same ones as {@link PreparoDoBanco}, with {@code REPLICATION} for the
 * relay's only.
 */
class PapeisDoComposeTest {

  private static final Pattern CRIAR = Pattern.compile("CREATE ROLE (\\w+) LOGIN( REPLICATION)?");

  @Test
  void oScriptDoComposeCriaOsMesmosPapeisQueOJava() throws Exception {
    String script = Files.readString(JarDoServico.raiz().resolve("docker/postgres/10-papeis.sh"));
    Map<String, Boolean> doCompose =
        CRIAR
            .matcher(script)
            .results()
            .collect(Collectors.toMap(m -> m.group(1), m -> m.group(2) != null));
    Map<String, Boolean> doJava =
        Arrays.stream(PapelNoBanco.values())
            .collect(
                Collectors.toMap(PapelNoBanco::nome, papel -> papel == PapelNoBanco.PUBLICADOR));
    assertThat(doCompose).isEqualTo(doJava);
    assertThat(script).contains("OWNER TO " + PapelNoBanco.DONO.nome());
  }
}
