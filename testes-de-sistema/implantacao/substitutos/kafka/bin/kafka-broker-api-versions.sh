#!/bin/bash
# As Kafka's own kafka-broker-api-versions.sh.
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
