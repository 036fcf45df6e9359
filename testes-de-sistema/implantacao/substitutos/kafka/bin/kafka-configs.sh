#!/bin/bash
# As Kafka's own kafka-configs.sh.
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.ConfigCommand "$@"
