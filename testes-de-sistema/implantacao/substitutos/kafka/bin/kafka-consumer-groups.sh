#!/bin/bash
# As Kafka's own kafka-consumer-groups.sh.
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$@"
