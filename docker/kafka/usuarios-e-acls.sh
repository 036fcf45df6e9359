#!/bin/bash
# The compose's Kafka init step: one SCRAM-SHA-512 user per service and the ACLs each needs, as the
# broker's internal super-user (SASL/PLAIN). Idempotent: users are upserted and ACLs re-added, so it
# runs at every `docker compose up`. The embedded test broker grants the same
# (infra-local: pedidos.infra.AclsDoKafka); change both together.
set -euo pipefail

BIN=/opt/kafka/bin
SERVIDOR=kafka:9092
CONFIG=/tmp/admin.properties
cat > "$CONFIG" <<PROPRIEDADES
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="pedidos-broker" password="${PEDIDOS_KAFKA_BROKER_PASSWORD}";
PROPRIEDADES

usuario() { # name password
  "$BIN/kafka-configs.sh" --bootstrap-server "$SERVIDOR" --command-config "$CONFIG" --alter \
    --entity-type users --entity-name "$1" \
    --add-config "SCRAM-SHA-512=[iterations=8192,password=$2]"
}
permitir() { # principal operation... -- resource options
  local principal=$1
  shift
  local operacoes=()
  while [ "$1" != "--" ]; do operacoes+=(--operation "$1"); shift; done
  shift
  "$BIN/kafka-acls.sh" --bootstrap-server "$SERVIDOR" --command-config "$CONFIG" --add \
    --allow-principal "User:$principal" "${operacoes[@]}" "$@" > /dev/null
}

revogar() { # principal operation... -- resource options
  local principal=$1
  shift
  local operacoes=()
  while [ "$1" != "--" ]; do operacoes+=(--operation "$1"); shift; done
  shift
  "$BIN/kafka-acls.sh" --bootstrap-server "$SERVIDOR" --command-config "$CONFIG" --remove --force \
    --allow-principal "User:$principal" "${operacoes[@]}" "$@" > /dev/null
}

usuario pedidos-admin "$PEDIDOS_KAFKA_ADMIN_PASSWORD"
usuario pedidos-publicador "$PEDIDOS_KAFKA_PUBLICADOR_PASSWORD"
usuario pedidos-aplicador "$PEDIDOS_KAFKA_APLICADOR_PASSWORD"
usuario pedidos-separacao "$PEDIDOS_KAFKA_SEPARACAO_PASSWORD"

# Each call grants every operation listed on every resource given (one JVM per call: they are
# grouped, this step runs before any service starts).
# Only the relay writes loja.eventos and separacao.efeitos; it owns all three topics: it creates
# them, adds partitions and corrects their settings before each start of its engine.
permitir pedidos-publicador Write -- --topic loja.eventos --topic separacao.efeitos
permitir pedidos-publicador Create Alter Describe DescribeConfigs AlterConfigs -- \
  --topic loja.eventos --topic separacao.efeitos --topic loja.eventos.DLT
permitir pedidos-publicador IdempotentWrite Describe -- --cluster

# Only the aplicador's group reads loja.eventos; it writes only the dead-letter topic. It checks
# both topics' settings at start and may change neither (no Create, Alter or AlterConfigs).
permitir pedidos-aplicador Read Describe DescribeConfigs -- --topic loja.eventos
permitir pedidos-aplicador Write Describe DescribeConfigs -- --topic loja.eventos.DLT
permitir pedidos-aplicador Read Describe -- --group aplicador
# Granted by earlier versions, when the aplicador also created the topics: a broker that kept its
# data keeps ACLs, so they are revoked, not only no longer added.
revogar pedidos-aplicador Create Alter AlterConfigs -- --topic loja.eventos --topic loja.eventos.DLT
permitir pedidos-aplicador IdempotentWrite Describe -- --cluster

# The picking system reads separacao.efeitos only, in groups named separacao*.
permitir pedidos-separacao Read Describe -- --topic separacao.efeitos
permitir pedidos-separacao Read Describe -- --group separacao --resource-pattern-type prefixed

echo "Kafka users and ACLs in place"
