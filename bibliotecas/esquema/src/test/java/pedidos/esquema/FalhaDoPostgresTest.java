package pedidos.esquema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FalhaDoPostgresTest {

  @Test
  void cadaSqlStateQueOsServicosEncontram() {
    Map<String, FalhaDoPostgres> casos =
        Map.ofEntries(
            Map.entry("08006", FalhaDoPostgres.INDISPONIVEL), // connection failure
            Map.entry("08001", FalhaDoPostgres.INDISPONIVEL), // cannot connect
            Map.entry("57014", FalhaDoPostgres.INDISPONIVEL), // statement timeout
            Map.entry("57P01", FalhaDoPostgres.INDISPONIVEL), // admin shutdown
            Map.entry("57P03", FalhaDoPostgres.INDISPONIVEL), // cannot connect now
            Map.entry("53100", FalhaDoPostgres.INDISPONIVEL), // disk full
            Map.entry("53300", FalhaDoPostgres.INDISPONIVEL), // too many connections
            Map.entry("58030", FalhaDoPostgres.INDISPONIVEL), // I/O error
            Map.entry("55P03", FalhaDoPostgres.INDISPONIVEL), // lock timeout
            Map.entry("25006", FalhaDoPostgres.INDISPONIVEL), // read-only: a standby
            Map.entry("40001", FalhaDoPostgres.CONCORRENCIA), // serialization failure
            Map.entry("40P01", FalhaDoPostgres.CONCORRENCIA), // deadlock
            Map.entry("22P02", FalhaDoPostgres.DADO_RECUSADO), // invalid text representation
            Map.entry("22003", FalhaDoPostgres.DADO_RECUSADO), // numeric out of range
            Map.entry("54000", FalhaDoPostgres.DADO_RECUSADO), // program limit exceeded
            Map.entry("23505", FalhaDoPostgres.OUTRA), // unique violation: decided by SQL, not here
            Map.entry("42P01", FalhaDoPostgres.OUTRA), // undefined table: a schema mismatch
            Map.entry("42501", FalhaDoPostgres.OUTRA), // insufficient privilege
            Map.entry("55P0", FalhaDoPostgres.OUTRA),
            Map.entry("", FalhaDoPostgres.OUTRA));
    casos.forEach(
        (estado, falha) ->
            assertThat(FalhaDoPostgres.doSqlState(estado)).as(estado).isEqualTo(falha));
    assertThat(FalhaDoPostgres.doSqlState(null)).isEqualTo(FalhaDoPostgres.OUTRA);
  }

  @Test
  void soIndisponivelEConcorrenciaSaoTransitorias() {
    assertThat(FalhaDoPostgres.INDISPONIVEL.transitoria()).isTrue();
    assertThat(FalhaDoPostgres.CONCORRENCIA.transitoria()).isTrue();
    assertThat(FalhaDoPostgres.DADO_RECUSADO.transitoria()).isFalse();
    assertThat(FalhaDoPostgres.OUTRA.transitoria()).isFalse();
  }
}
