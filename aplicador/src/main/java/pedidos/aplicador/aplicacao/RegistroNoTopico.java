package pedidos.aplicador.aplicacao;

import pedidos.contrato.RegistroDeEvento;

/** A record of {@code loja.eventos} as the listener read it: its event, and where it was read. */
public record RegistroNoTopico(RegistroDeEvento evento, PosicaoNoTopico posicao) {}
