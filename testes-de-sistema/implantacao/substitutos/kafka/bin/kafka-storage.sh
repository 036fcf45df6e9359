#!/bin/bash
# As Kafka's own kafka-storage.sh.
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.StorageTool "$@"
