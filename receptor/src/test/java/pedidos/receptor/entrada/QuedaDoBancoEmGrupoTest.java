package pedidos.receptor.entrada;

import org.springframework.test.context.TestPropertySource;

/** The database going away and coming back, with group commit. */
@TestPropertySource(properties = "receptor.gravacao.modo=grupo")
class QuedaDoBancoEmGrupoTest extends QuedaDoBanco {}
