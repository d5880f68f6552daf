#!/usr/bin/env bash
# Runs the database host's provisioning (infra/provision/db.sh) for real on this machine, in its
# test mode: everything under a temporary directory, loopback only, ports 25432 23301 26379
# 26380 26381 26382 21300 (never script/services' 15432 13301 16379 16380 16381 16382 11300).
# Runs it twice (idempotence), checks that each server answers with the password and refuses
# without it, then stops everything and removes the directory. Prints
# `provision: N passed, M failed`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DB_SH="$ROOT/infra/provision/db.sh"
PG_PORT=25432 TARANTOOL_PORT=23301 REDIS_CACHE_PORT=26379 REDIS_PERSISTENT_PORT=26380
REDIS_AOF_PORT=26381 REDIS_RDB_PORT=26382 BEANSTALKD_PORT=21300
TEST_PORTS=("$PG_PORT" "$TARANTOOL_PORT" "$REDIS_CACHE_PORT" "$REDIS_PERSISTENT_PORT" "$REDIS_AOF_PORT"
  "$REDIS_RDB_PORT" "$BEANSTALKD_PORT")
DEV_PORTS=(15432 13301 16379 16380 16381 16382 11300)
PASSWORD="test-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"

passed=0 failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; }
check() { local title="$1"; shift; if "$@" >/dev/null 2>&1; then pass "$title"; else fail "$title"; fi; }
refuses() { ! "$@"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

for port in "${TEST_PORTS[@]}"; do
  if port_open "$port"; then
    echo "port $port is already in use: stop what listens there (an earlier run?) and retry" >&2
    echo "provision: 0 passed, 1 failed"
    exit 1
  fi
done

TEST_ROOT="$(mktemp -d /tmp/provision-db.XXXXXX)"
chmod 755 "$TEST_ROOT" # PostgreSQL runs as the postgres user and must reach its data directory
export PROVISION_TEST_ROOT="$TEST_ROOT" DB_PASSWORD="$PASSWORD"
cleanup() {
  "$DB_SH" stop >/dev/null 2>&1 || true
  rm -rf "$TEST_ROOT"
}
trap cleanup EXIT

dev_open=()
for port in "${DEV_PORTS[@]}"; do if port_open "$port"; then dev_open+=("$port"); fi; done

PSQL="$(find /usr/lib/postgresql -maxdepth 3 -name psql -path '*/bin/*' | sort -V | tail -n 1)"
psql_as() { PGPASSWORD="$1" PGCONNECT_TIMEOUT=5 "$PSQL" -h 127.0.0.1 -p "$PG_PORT" -U integration -d integration -tAc "$2"; }
redis_as() { local port="$1" password="$2"; shift 2; redis-cli -h 127.0.0.1 -p "$port" -a "$password" --no-auth-warning "$@"; }
tarantool_as() {
  tarantool -e "
    local conn = require('net.box').connect('127.0.0.1:$TARANTOOL_PORT',
      { user = 'integration', password = '$1', wait_connected = 5 })
    if not conn:is_connected() then io.stderr:write(tostring(conn.error), '\n') os.exit(1) end
    local ok = conn:ping() and conn.space.authors_memtx ~= nil and conn.space.items_vinyl ~= nil
    os.exit(ok and 0 or 1)"
}
redis_refuses() { redis-cli -h 127.0.0.1 -p "$1" ping 2>&1 | grep -q NOAUTH; }
# One setting of a running Redis instance, e.g. redis_config PORT appendonly -> yes.
redis_config() { redis_as "$1" "$PASSWORD" config get "$2" | tail -n 1; }
beanstalkd_stats() {
  exec 4<>"/dev/tcp/127.0.0.1/$BEANSTALKD_PORT"
  printf 'stats\r\n' >&4
  local line; IFS= read -r -t 5 line <&4
  exec 4>&-
  [[ "$line" == OK* ]]
}

verify() {
  local round="$1"
  check "$round: postgres accepts integration with the password" test "$(psql_as "$PASSWORD" 'select 1')" = 1
  check "$round: postgres refuses a wrong password" refuses psql_as wrong-password 'select 1'
  check "$round: postgres runs infra/config/postgresql.conf (synchronous_commit=on, shared_buffers=1GB)" \
    test "$(psql_as "$PASSWORD" "select current_setting('synchronous_commit') || ' ' || current_setting('shared_buffers')")" = "on 1GB"
  check "$round: postgres listens on the test port" test "$(psql_as "$PASSWORD" "select current_setting('port')")" = "$PG_PORT"
  check "$round: tarantool accepts integration with the password and has the schema" tarantool_as "$PASSWORD"
  check "$round: tarantool refuses a wrong password" refuses tarantool_as wrong-password
  check "$round: redis-cache answers with the password" test "$(redis_as "$REDIS_CACHE_PORT" "$PASSWORD" ping)" = PONG
  check "$round: redis-cache refuses a client without the password" redis_refuses "$REDIS_CACHE_PORT"
  check "$round: redis-persistent refuses a client without the password" redis_refuses "$REDIS_PERSISTENT_PORT"
  check "$round: redis-cache runs infra/config/redis-cache.conf (allkeys-lru)" \
    test "$(redis_as "$REDIS_CACHE_PORT" "$PASSWORD" config get maxmemory-policy | tail -n 1)" = allkeys-lru
  check "$round: redis-persistent answers with the password" test "$(redis_as "$REDIS_PERSISTENT_PORT" "$PASSWORD" ping)" = PONG
  check "$round: redis-persistent runs infra/config/redis-persistent.conf (appendonly yes)" \
    test "$(redis_as "$REDIS_PERSISTENT_PORT" "$PASSWORD" config get appendonly | tail -n 1)" = yes
  # The queue instances: a full queue must refuse writes (noeviction), never drop messages.
  check "$round: redis-aof answers with the password" test "$(redis_as "$REDIS_AOF_PORT" "$PASSWORD" ping)" = PONG
  check "$round: redis-aof refuses a client without the password" redis_refuses "$REDIS_AOF_PORT"
  check "$round: redis-aof runs infra/config/redis-aof.conf (appendonly yes, fsync everysec)" \
    test "$(redis_config "$REDIS_AOF_PORT" appendonly) $(redis_config "$REDIS_AOF_PORT" appendfsync)" \
    = "yes everysec"
  check "$round: redis-aof runs infra/config/redis-aof.conf (noeviction, maxmemory 1gb)" \
    test "$(redis_config "$REDIS_AOF_PORT" maxmemory-policy) $(redis_config "$REDIS_AOF_PORT" maxmemory)" \
    = "noeviction 1073741824"
  check "$round: redis-rdb answers with the password" test "$(redis_as "$REDIS_RDB_PORT" "$PASSWORD" ping)" = PONG
  check "$round: redis-rdb refuses a client without the password" redis_refuses "$REDIS_RDB_PORT"
  check "$round: redis-rdb runs infra/config/redis-rdb.conf (save 1 1, appendonly no)" \
    test "$(redis_config "$REDIS_RDB_PORT" save)/$(redis_config "$REDIS_RDB_PORT" appendonly)" = "1 1/no"
  check "$round: redis-rdb runs infra/config/redis-rdb.conf (noeviction, maxmemory 1gb)" \
    test "$(redis_config "$REDIS_RDB_PORT" maxmemory-policy) $(redis_config "$REDIS_RDB_PORT" maxmemory)" \
    = "noeviction 1073741824"
  check "$round: beanstalkd answers stats" beanstalkd_stats
  check "$round: pg_hba holds exactly one integrationservice block" \
    test "$(grep -c '^# BEGIN integrationservice' "$TEST_ROOT/var/postgres/pg_hba.conf")" = 1
  check "$round: postgresql.conf includes conf.d exactly once" \
    test "$(grep -c "^include_dir = 'conf.d'" "$TEST_ROOT/var/postgres/postgresql.conf")" = 1
}

for round in "first run" "second run"; do
  if "$DB_SH" up >"$TEST_ROOT/db-sh.log" 2>&1; then
    pass "$round: db.sh up exits 0"
  else
    fail "$round: db.sh up exits 0"
    sed 's/^/    /' "$TEST_ROOT/db-sh.log"
  fi
  verify "$round"
done

# The development servers of script/services were not touched.
for port in "${dev_open[@]}"; do check "development server on $port still up" port_open "$port"; done

check "db.sh stop exits 0" "$DB_SH" stop
for port in "${TEST_PORTS[@]}"; do
  check "port $port closed after stop" refuses port_open "$port"
done
check "db.sh refuses a development port in test mode" refuses env PG_PORT=15432 "$DB_SH" up
check "db.sh refuses redis-aof's development port in test mode" refuses env REDIS_AOF_PORT=16381 "$DB_SH" up
check "db.sh refuses redis-rdb's development port in test mode" refuses env REDIS_RDB_PORT=16382 "$DB_SH" up

echo "provision: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
