package pedidos.gestao;

/**
 * A service's properties record that holds the operators' credentials, which {@link
 * SegurancaDaGestao} reads: the service's one record stays the one place its settings are bound.
 */
public interface ComOps {

  Ops ops();
}
