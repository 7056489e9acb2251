#!/usr/bin/env bash
# PostgreSQL for the server's database test (tests/test_server_postgres.py): installs it where it is
# missing, starts the newest cluster, and makes the role osteria (password osteria) owner of the
# database osteria_test on 127.0.0.1:5432, the test's default OSTERIA_TEST_POSTGRES.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main status >/dev/null 2>&1 || pg_ctlcluster "$version" main start
as_postgres() { runuser -u postgres -- psql -v ON_ERROR_STOP=1 -qtAc "$1"; }
if [ -z "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname = 'osteria'")" ]; then
  as_postgres "CREATE ROLE osteria LOGIN PASSWORD 'osteria'"
fi
if [ -z "$(as_postgres "SELECT 1 FROM pg_database WHERE datname = 'osteria_test'")" ]; then
  as_postgres "CREATE DATABASE osteria_test OWNER osteria"
fi
