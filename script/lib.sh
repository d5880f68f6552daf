#!/usr/bin/env bash
# Shared settings for the scripts in script/: repository root, ports, data directories.
# Sourced, never run. Every port can be overridden from the environment.
# shellcheck disable=SC2034  # the variables here are read by the scripts that source this file

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="${DATA_DIR:-$ROOT/.data}"
LOG_DIR="$DATA_DIR/logs"
CONFIG_DIR="$ROOT/infra/config"

# Every server's port, NAME:user's:tests': the user's servers (script/services, script/server,
# script/bench) and the tests' own (script/test, `script/services --test`; the test fixture
# IntegrationService.Tests/Fixtures/TestServers.cs has the same defaults). NAME_PORT and
# TEST_NAME_PORT from the environment win. The Redis Cluster's three masters listen on
# REDIS_CLUSTER_PORT and the next two ports (and on each port + 10000 for the cluster bus: keep
# those free too); RabbitMQ's Erlang distribution port is its AMQP port + 20000 (keep it free too).
SERVER_PORTS=(PG:15432:15433 TARANTOOL:13301:13302 REDIS_CACHE:16379:16391 REDIS_PERSISTENT:16380:16392 REDIS_AOF:16381:16393
  REDIS_RDB:16382:16394 BEANSTALKD:11300:11301 REDIS_CLUSTER:17001:17011 RABBITMQ:15673:15674 NATS:14222:14223)
PORT_NAMES=() DEFAULT_PORTS=()
define_ports() {
  local entry name user test var
  for entry in "${SERVER_PORTS[@]}"; do
    IFS=: read -r name user test <<<"$entry"
    PORT_NAMES+=("$name") DEFAULT_PORTS+=("$user")
    if [ "$name" = REDIS_CLUSTER ]; then DEFAULT_PORTS+=("$((user + 1))" "$((user + 2))"); fi
    var="${name}_PORT"; printf -v "$var" '%s' "${!var:-$user}"; export "${var?}"
    var="TEST_${name}_PORT"; printf -v "$var" '%s' "${!var:-$test}"
  done
}
define_ports
SERVICE_PORT="${PORT:-8080}"

# Every server script/services manages, in start order.
ALL_SERVERS=(postgres tarantool redis-cache redis-persistent redis-aof redis-rdb beanstalkd redis-cluster rabbitmq nats)

# The tests' own servers keep their data apart too, and the bench's service its own port.
TEST_DATA_DIR="${TEST_DATA_DIR:-$ROOT/.data/test}"
TEST_BENCH_PORT="${TEST_BENCH_PORT:-18081}"

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

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Switches this script to the tests' own servers: DATA_DIR, LOG_DIR and the ports become the
# TEST_* values (exported, so script/services, script/bench and the .NET tests inherit them).
# The user's values stay in USER_DATA_DIR and USER_*_PORT. Refuses a test port or data
# directory that is the user's, and drops connection settings inherited from the environment.
use_test_instances() {
  local port name settings user_ports=("${DEFAULT_PORTS[@]}")
  # A parent that already switched (script/test, the .NET tests) exports TEST_INSTANCES=1 and the
  # test values in PG_PORT etc.: those are not the user's.
  if [ "${TEST_INSTANCES:-0}" != 1 ]; then
    mapfile -t -O "${#user_ports[@]}" user_ports < <(ports_taken "")
    [ "$TEST_DATA_DIR" != "$DATA_DIR" ] || die "TEST_DATA_DIR must differ from the user's DATA_DIR ($DATA_DIR)"
  fi
  for port in $(ports_taken TEST_); do
    case " ${user_ports[*]} " in
      *" $port "*) die "test port $port is one of the user's server ports (${user_ports[*]}): choose other TEST_*_PORT values" ;;
    esac
  done
  [ "$TEST_DATA_DIR" != "$ROOT/.data" ] || die "TEST_DATA_DIR must not be the user's data directory $ROOT/.data"
  USER_DATA_DIR="$DATA_DIR" DATA_DIR="$TEST_DATA_DIR" LOG_DIR="$TEST_DATA_DIR/logs" TEST_INSTANCES=1
  for name in "${PORT_NAMES[@]}"; do
    port="${name}_PORT"; printf -v "USER_$port" '%s' "${!port}"
    port="TEST_${name}_PORT"; printf -v "${name}_PORT" '%s' "${!port}"
    export "${name}_PORT" "TEST_${name}_PORT"
  done
  export DATA_DIR TEST_INSTANCES TEST_DATA_DIR
  mapfile -t settings < <(service_settings | cut -d= -f1)
  unset "${settings[@]}"
}

# Every port the servers take with the ports NAME_PORT (prefix "") or TEST_NAME_PORT (TEST_),
# the Redis Cluster's other two masters and RabbitMQ's distribution port included.
ports_taken() {
  local name var
  for name in "${PORT_NAMES[@]}"; do
    var="$1${name}_PORT"; echo "${!var}"
    case "$name" in REDIS_CLUSTER) printf '%s\n' "$((${!var} + 1))" "$((${!var} + 2))" ;; RABBITMQ) echo "$((${!var} + 20000))" ;; esac
  done
}

# The connection settings the service and the tests read, as ASP.NET configuration keys
# (Section__Key=value, one a line), for the servers on the current ports.
service_settings() {
  printf '%s\n' "Postgres__ConnectionString=Host=127.0.0.1;Port=$PG_PORT;Username=integration;Database=integration" \
    Tarantool__Host=127.0.0.1 "Tarantool__Port=$TARANTOOL_PORT" "Redis__Cache=127.0.0.1:$REDIS_CACHE_PORT" \
    "Redis__Persistent=127.0.0.1:$REDIS_PERSISTENT_PORT" "Redis__Aof=127.0.0.1:$REDIS_AOF_PORT" "Redis__Rdb=127.0.0.1:$REDIS_RDB_PORT" \
    "Redis__Cluster=127.0.0.1:$REDIS_CLUSTER_PORT,127.0.0.1:$((REDIS_CLUSTER_PORT + 1)),127.0.0.1:$((REDIS_CLUSTER_PORT + 2))" \
    Beanstalkd__Host=127.0.0.1 "Beanstalkd__Port=$BEANSTALKD_PORT" RabbitMq__Host=127.0.0.1 "RabbitMq__Port=$RABBITMQ_PORT" \
    "Nats__Url=nats://127.0.0.1:$NATS_PORT"
}

# Exports the settings; one the environment already gives keeps its value.
service_environment() {
  local setting name
  while IFS= read -r setting; do
    name="${setting%%=*}"
    if [ -n "${!name:-}" ]; then export "${name?}"; else export "${setting?}"; fi
  done < <(service_settings)
}
