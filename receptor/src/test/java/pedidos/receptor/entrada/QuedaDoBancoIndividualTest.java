package pedidos.receptor.entrada;

import org.springframework.test.context.TestPropertySource;

/** The database going away and coming back, with one insert and one commit per request. */
@TestPropertySource(properties = "receptor.gravacao.modo=individual")
class QuedaDoBancoIndividualTest extends QuedaDoBanco {}
