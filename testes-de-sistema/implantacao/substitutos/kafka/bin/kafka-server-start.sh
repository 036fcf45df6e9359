#!/bin/bash
# As Kafka's: a 1 GiB heap unless KAFKA_HEAP_OPTS says otherwise, the broker's log configuration.
base=$(dirname "$0")/..
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G}"
export KAFKA_LOG4J_OPTS="${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=$base/config/log4j2.yaml}"
exec "$(dirname "$0")/kafka-run-class.sh" kafka.Kafka "$@"
