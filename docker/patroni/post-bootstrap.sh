#!/bin/bash
# Patroni's post_bootstrap (run once, on the node that initialised the cluster, with a
# superuser connection string as $1): the service's role and database.
set -euo pipefail
user="${CUCCU_DB_USER:-cuccu}"
password="${CUCCU_DB_PASSWORD:-cuccu}"
db="${CUCCU_DB_NAME:-cuccu}"
psql "$1" -v ON_ERROR_STOP=1 -q \
    -v user="$user" -v password="$password" -v db="$db" <<'SQL'
CREATE ROLE :"user" LOGIN PASSWORD :'password';
CREATE DATABASE :"db" OWNER :"user";
SQL
