#!/usr/bin/env bash
# Shared settings for the scripts in script/: repository root, ports, data directories.
# Sourced, never run. Every port can be overridden from the environment.
# shellcheck disable=SC2034  # the variables here are read by the scripts that source this file

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="${DATA_DIR:-$ROOT/.data}"
LOG_DIR="$DATA_DIR/logs"
CONFIG_DIR="$ROOT/infra/config"

# The user's servers (script/services, script/server, script/bench): these defaults.
DEFAULT_PORTS=(15432 13301 16379 16380 16381 16382 11300 17001 17002 17003 15673 14222)
PG_PORT="${PG_PORT:-15432}"
TARANTOOL_PORT="${TARANTOOL_PORT:-13301}"
REDIS_CACHE_PORT="${REDIS_CACHE_PORT:-16379}"
REDIS_PERSISTENT_PORT="${REDIS_PERSISTENT_PORT:-16380}"
REDIS_AOF_PORT="${REDIS_AOF_PORT:-16381}"
REDIS_RDB_PORT="${REDIS_RDB_PORT:-16382}"
BEANSTALKD_PORT="${BEANSTALKD_PORT:-11300}"
# The Redis Cluster's three masters listen on REDIS_CLUSTER_PORT and the next two ports (and on
# each port + 10000 for the cluster bus: keep those free too).
REDIS_CLUSTER_PORT="${REDIS_CLUSTER_PORT:-17001}"
# RabbitMQ's AMQP port; its Erlang distribution port is this + 20000 (keep it free too).
RABBITMQ_PORT="${RABBITMQ_PORT:-15673}"
NATS_PORT="${NATS_PORT:-14222}"
SERVICE_PORT="${PORT:-8080}"

# Every server script/services manages, in start order.
ALL_SERVERS=(postgres tarantool redis-cache redis-persistent redis-aof redis-rdb beanstalkd redis-cluster rabbitmq nats)

# The tests' own servers (script/test, `script/services --test`): their own data directory and
# ports, so a test run never touches the user's servers or their seeded data. The test fixture
# (IntegrationService.Tests/Fixtures/TestServers.cs) has the same defaults.
TEST_DATA_DIR="${TEST_DATA_DIR:-$ROOT/.data/test}"
TEST_PG_PORT="${TEST_PG_PORT:-15433}"
TEST_TARANTOOL_PORT="${TEST_TARANTOOL_PORT:-13302}"
TEST_REDIS_CACHE_PORT="${TEST_REDIS_CACHE_PORT:-16391}"
TEST_REDIS_PERSISTENT_PORT="${TEST_REDIS_PERSISTENT_PORT:-16392}"
TEST_REDIS_AOF_PORT="${TEST_REDIS_AOF_PORT:-16393}"
TEST_REDIS_RDB_PORT="${TEST_REDIS_RDB_PORT:-16394}"
TEST_BEANSTALKD_PORT="${TEST_BEANSTALKD_PORT:-11301}"
TEST_REDIS_CLUSTER_PORT="${TEST_REDIS_CLUSTER_PORT:-17011}"
TEST_RABBITMQ_PORT="${TEST_RABBITMQ_PORT:-15674}"
TEST_NATS_PORT="${TEST_NATS_PORT:-14223}"
TEST_BENCH_PORT="${TEST_BENCH_PORT:-18081}"

export PG_PORT TARANTOOL_PORT REDIS_CACHE_PORT REDIS_PERSISTENT_PORT REDIS_AOF_PORT REDIS_RDB_PORT BEANSTALKD_PORT REDIS_CLUSTER_PORT RABBITMQ_PORT NATS_PORT

PG_BIN="$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)"

# The load tool's Release build; build_tank builds it first when a source is newer than it.
TANK_DLL="$ROOT/tank/Tank/bin/Release/net10.0/Tank.dll"
build_tank() {
  if [ ! -f "$TANK_DLL" ] || [ -n "$(find "$ROOT/tank/Tank" \( -name bin -o -name obj \) -prune -o \( -name '*.cs' -o -name '*.csproj' \) -newer "$TANK_DLL" -print -quit)" ]; then
    log "building the tank in Release"
    dotnet build "$ROOT/tank/Tank" -c Release --nologo --verbosity quiet >&2
  fi
}

# Brings every server up, and at exit stops those that were down before (the machine is left as
# found). Sets the EXIT trap.
servers_up_as_found() {
  local server
  WAS_DOWN=()
  for server in "${ALL_SERVERS[@]}"; do
    "$ROOT/script/services" status "$server" >/dev/null 2>&1 || WAS_DOWN+=("$server")
  done
  trap 'if [ "${#WAS_DOWN[@]}" -gt 0 ]; then "$ROOT/script/services" down "${WAS_DOWN[@]}" || true; fi' EXIT
  "$ROOT/script/services" up
}

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Runs a command as root: directly when we are root, through sudo otherwise.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Waits until a TCP port on loopback accepts connections, or fails after $2 seconds.
wait_for_port() {
  local port="$1" seconds="${2:-30}" i
  for ((i = 0; i < seconds * 10; i++)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Switches this script to the tests' own servers: DATA_DIR, LOG_DIR and the ports become the
# TEST_* values (exported, so script/services, script/bench and the .NET tests inherit them).
# The user's values stay in USER_DATA_DIR and USER_*_PORT. Refuses a test port or data
# directory that is the user's, and drops connection settings inherited from the environment.
use_test_instances() {
  local port user_ports=("${DEFAULT_PORTS[@]}")
  # A parent that already switched (script/test, the .NET tests) exports TEST_INSTANCES=1 and the
  # test values in PG_PORT etc.: those are not the user's.
  if [ "${TEST_INSTANCES:-0}" != 1 ]; then
    user_ports+=("$PG_PORT" "$TARANTOOL_PORT" "$REDIS_CACHE_PORT" "$REDIS_PERSISTENT_PORT" "$REDIS_AOF_PORT" "$REDIS_RDB_PORT" "$BEANSTALKD_PORT"
      "$REDIS_CLUSTER_PORT" "$((REDIS_CLUSTER_PORT + 1))" "$((REDIS_CLUSTER_PORT + 2))" "$RABBITMQ_PORT" "$((RABBITMQ_PORT + 20000))" "$NATS_PORT")
    [ "$TEST_DATA_DIR" != "$DATA_DIR" ] || die "TEST_DATA_DIR must differ from the user's DATA_DIR ($DATA_DIR)"
  fi
  for port in "$TEST_PG_PORT" "$TEST_TARANTOOL_PORT" "$TEST_REDIS_CACHE_PORT" "$TEST_REDIS_PERSISTENT_PORT" \
      "$TEST_REDIS_AOF_PORT" "$TEST_REDIS_RDB_PORT" "$TEST_BEANSTALKD_PORT" \
      "$TEST_REDIS_CLUSTER_PORT" "$((TEST_REDIS_CLUSTER_PORT + 1))" "$((TEST_REDIS_CLUSTER_PORT + 2))" \
      "$TEST_RABBITMQ_PORT" "$((TEST_RABBITMQ_PORT + 20000))" "$TEST_NATS_PORT"; do
    case " ${user_ports[*]} " in
      *" $port "*) die "test port $port is one of the user's server ports (${user_ports[*]}): choose other TEST_*_PORT values" ;;
    esac
  done
  [ "$TEST_DATA_DIR" != "$ROOT/.data" ] || die "TEST_DATA_DIR must not be the user's data directory $ROOT/.data"
  USER_DATA_DIR="$DATA_DIR" USER_PG_PORT="$PG_PORT" USER_TARANTOOL_PORT="$TARANTOOL_PORT"
  USER_REDIS_CACHE_PORT="$REDIS_CACHE_PORT" USER_REDIS_PERSISTENT_PORT="$REDIS_PERSISTENT_PORT"
  USER_REDIS_AOF_PORT="$REDIS_AOF_PORT" USER_REDIS_RDB_PORT="$REDIS_RDB_PORT" USER_BEANSTALKD_PORT="$BEANSTALKD_PORT"
  USER_REDIS_CLUSTER_PORT="$REDIS_CLUSTER_PORT" USER_RABBITMQ_PORT="$RABBITMQ_PORT" USER_NATS_PORT="$NATS_PORT"
  DATA_DIR="$TEST_DATA_DIR" LOG_DIR="$TEST_DATA_DIR/logs" TEST_INSTANCES=1
  PG_PORT="$TEST_PG_PORT" TARANTOOL_PORT="$TEST_TARANTOOL_PORT"
  REDIS_CACHE_PORT="$TEST_REDIS_CACHE_PORT" REDIS_PERSISTENT_PORT="$TEST_REDIS_PERSISTENT_PORT"
  REDIS_AOF_PORT="$TEST_REDIS_AOF_PORT" REDIS_RDB_PORT="$TEST_REDIS_RDB_PORT" BEANSTALKD_PORT="$TEST_BEANSTALKD_PORT"
  REDIS_CLUSTER_PORT="$TEST_REDIS_CLUSTER_PORT" RABBITMQ_PORT="$TEST_RABBITMQ_PORT" NATS_PORT="$TEST_NATS_PORT"
  export DATA_DIR PG_PORT TARANTOOL_PORT REDIS_CACHE_PORT REDIS_PERSISTENT_PORT REDIS_AOF_PORT REDIS_RDB_PORT BEANSTALKD_PORT REDIS_CLUSTER_PORT TEST_INSTANCES
  export RABBITMQ_PORT NATS_PORT
  export TEST_DATA_DIR TEST_PG_PORT TEST_TARANTOOL_PORT TEST_REDIS_CACHE_PORT TEST_REDIS_PERSISTENT_PORT
  export TEST_REDIS_AOF_PORT TEST_REDIS_RDB_PORT TEST_BEANSTALKD_PORT TEST_REDIS_CLUSTER_PORT TEST_RABBITMQ_PORT TEST_NATS_PORT
  unset Postgres__ConnectionString Tarantool__Host Tarantool__Port Redis__Cache Redis__Persistent Redis__Aof Redis__Rdb Redis__Cluster
  unset Beanstalkd__Host Beanstalkd__Port RabbitMq__Host RabbitMq__Port Nats__Url
}

# The connection settings the service and the tests read (ASP.NET configuration keys).
service_environment() {
  export Postgres__ConnectionString="${Postgres__ConnectionString:-Host=127.0.0.1;Port=$PG_PORT;Username=integration;Database=integration}"
  export Tarantool__Host="${Tarantool__Host:-127.0.0.1}"
  export Tarantool__Port="${Tarantool__Port:-$TARANTOOL_PORT}"
  export Redis__Cache="${Redis__Cache:-127.0.0.1:$REDIS_CACHE_PORT}"
  export Redis__Persistent="${Redis__Persistent:-127.0.0.1:$REDIS_PERSISTENT_PORT}"
  export Redis__Aof="${Redis__Aof:-127.0.0.1:$REDIS_AOF_PORT}"
  export Redis__Rdb="${Redis__Rdb:-127.0.0.1:$REDIS_RDB_PORT}"
  export Redis__Cluster="${Redis__Cluster:-127.0.0.1:$REDIS_CLUSTER_PORT,127.0.0.1:$((REDIS_CLUSTER_PORT + 1)),127.0.0.1:$((REDIS_CLUSTER_PORT + 2))}"
  export Beanstalkd__Host="${Beanstalkd__Host:-127.0.0.1}"
  export Beanstalkd__Port="${Beanstalkd__Port:-$BEANSTALKD_PORT}"
  export RabbitMq__Host="${RabbitMq__Host:-127.0.0.1}"
  export RabbitMq__Port="${RabbitMq__Port:-$RABBITMQ_PORT}"
  export Nats__Url="${Nats__Url:-nats://127.0.0.1:$NATS_PORT}"
}
