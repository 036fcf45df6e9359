-- The seed's schema, exactly as designed. Later needs come as later migrations.

-- Caixa de entrada: todo evento e gravado antes de qualquer decisao.
CREATE TABLE webhook_eventos (
  evento_id text PRIMARY KEY, -- id do evento no provedor: deduplica reentregas
  recurso_id text NOT NULL, -- id do pedido a que o evento se refere
  tipo text NOT NULL,
  payload jsonb NOT NULL,
  recebido_em timestamptz NOT NULL DEFAULT now(),
  aplicado_em timestamptz,
  resultado text -- aplicado, evento_antigo, regressao_de_terminal...
);

-- A varredura so procura o que ainda nao foi aplicado.
CREATE INDEX webhook_eventos_pendentes
  ON webhook_eventos (recebido_em) WHERE aplicado_em IS NULL;

CREATE TABLE pedidos (
  id text PRIMARY KEY, -- id do pedido no provedor
  status text NOT NULL
    CHECK (status IN ('criado', 'pago', 'enviado', 'cancelado', 'reembolsado')),
  total_centavos bigint, -- pode chegar depois: o primeiro fato nem sempre traz tudo
  cliente_email text,
  versao_origem bigint NOT NULL, -- chave de ordenacao do ultimo fato aplicado
  atualizado_em timestamptz NOT NULL DEFAULT now()
);

-- Efeitos colaterais nascem da transicao de estado, na mesma transacao.
CREATE TABLE outbox (
  pedido_id text NOT NULL,
  efeito text NOT NULL,
  criado_em timestamptz NOT NULL DEFAULT now(),
  enviado_em timestamptz,
  PRIMARY KEY (pedido_id, efeito)
);

-- Ponto de partida da reconciliacao periodica.
CREATE TABLE cursores (
  nome text PRIMARY KEY,
  valor timestamptz NOT NULL
);

INSERT INTO cursores (nome, valor) VALUES ('pedidos_loja', now() - interval '1 day');
