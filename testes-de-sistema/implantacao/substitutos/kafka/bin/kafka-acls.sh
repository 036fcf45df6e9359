#!/bin/bash
# As Kafka's own kafka-acls.sh.
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.AclCommand "$@"
