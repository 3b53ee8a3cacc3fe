#!/bin/bash
# One Patroni node: its name and addresses come from the container (compose.ha.yaml sets the
# hostname to the service name, which the other containers resolve), the rest from
# /etc/patroni/patroni.yml and the PATRONI_* environment.
set -euo pipefail
name="${PATRONI_NAME:-$(hostname)}"
export PATRONI_NAME="$name"
export PATRONI_RESTAPI_CONNECT_ADDRESS="${PATRONI_RESTAPI_CONNECT_ADDRESS:-$name:8008}"
export PATRONI_POSTGRESQL_CONNECT_ADDRESS="${PATRONI_POSTGRESQL_CONNECT_ADDRESS:-$name:5432}"
exec patroni /etc/patroni/patroni.yml
