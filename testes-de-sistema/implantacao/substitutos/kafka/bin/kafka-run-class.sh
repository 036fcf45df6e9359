#!/bin/bash
# As Kafka's own bin/kafka-run-class.sh, reduced to what the stand-in needs: the same variables
# (KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_LOG4J_OPTS, KAFKA_OPTS) with the same
# defaults, every jar of /opt/kafka/libs on the class path.
base=$(dirname "$0")/..
: "${KAFKA_HEAP_OPTS:=-Xmx256M}"
: "${KAFKA_JVM_PERFORMANCE_OPTS:=-server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true}"
: "${KAFKA_LOG4J_OPTS:=-Dlog4j2.configurationFile=$base/config/tools-log4j2.yaml}"
# shellcheck disable=SC2086
exec java $KAFKA_HEAP_OPTS $KAFKA_JVM_PERFORMANCE_OPTS ${KAFKA_GC_LOG_OPTS:-} ${KAFKA_JMX_OPTS:-} \
  $KAFKA_LOG4J_OPTS -cp "$base/libs/*" ${KAFKA_OPTS:-} "$@"
