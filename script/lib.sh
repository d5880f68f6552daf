#!/usr/bin/env bash
# Shared settings for the scripts in script/: repository root, ports, data directories.
# Sourced, never run. Every port can be overridden from the environment.
# shellcheck disable=SC2034  # the variables here are read by the scripts that source this file

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="${DATA_DIR:-$ROOT/.data}"
LOG_DIR="$DATA_DIR/logs"
CONFIG_DIR="$ROOT/infra/config"

# Every port our servers listen on, the user's (script/services, script/server, script/bench) and
# the tests' (script/test, `script/services --test`, script/crashtest), comes from one table,
# infra/config/ports.txt (the service's default endpoints and the test fixture
# IntegrationService.Tests/Fixtures/TestServers.cs read it too). Each row NAME gives NAME_PORT (the
# user's) and TEST_NAME_PORT (the tests'); both from the environment win. The Redis Cluster's three
# masters listen on REDIS_CLUSTER_PORT and the next two ports, and on each port + 10000 for the
# cluster bus; RabbitMQ's Erlang distribution port is RABBITMQ_DIST_PORT.
PORT_TABLE="${PORT_TABLE:-$CONFIG_DIR/ports.txt}"
# The other ports a row's servers take, as offsets from its port: the "[+N …]" that opens its note.
declare -A PORT_OFFSETS=()
port_offsets() { echo "${PORT_OFFSETS[$1]:-}"; }
PORT_NAMES=() DEFAULT_PORTS=()
define_ports() {
  local name user test note var offset
  [ -r "$PORT_TABLE" ] || { printf 'error: the port table %s is missing\n' "$PORT_TABLE" >&2; exit 1; }
  while read -r name user test note; do
    case "$name" in '' | '#'*) continue ;; esac
    if [ "$user" = - ]; then user=""; fi
    if [ "$test" = - ]; then test=""; fi
    PORT_NAMES+=("$name")
    if [[ "$note" =~ ^\[([+0-9\ ]*)\] ]]; then PORT_OFFSETS[$name]="${BASH_REMATCH[1]//+/}"; fi
    if [ -n "$user" ]; then DEFAULT_PORTS+=("$user"); fi
    if [ -n "$user" ]; then for offset in $(port_offsets "$name"); do DEFAULT_PORTS+=("$((user + offset))"); done; fi
    for var in "${name}_PORT" "TEST_${name}_PORT"; do
      if [ "$var" = "${name}_PORT" ]; then printf -v "$var" '%s' "${!var:-$user}"; else printf -v "$var" '%s' "${!var:-$test}"; fi
      if [ -n "${!var}" ] && { ! [[ "${!var}" =~ ^[1-9][0-9]{0,4}$ ]] || [ "${!var}" -gt 65535 ]; }; then
        printf 'error: %s=%s is not a port (1-65535)\n' "$var" "${!var}" >&2; exit 1
      fi
    done
    export "${name}_PORT"
  done <"$PORT_TABLE"
}
define_ports
# script/server's service: PORT wins, as ASP.NET hosts have it.
SERVICE_PORT="${PORT:-$SERVICE_PORT}"

# ---- ports inside the kernel's ephemeral range ------------------------------------------------
#
# Linux gives an outgoing connection a local port from ip_local_port_range (32768-60999 on Debian):
# a server whose port lies there can find it taken by any client of the machine at the moment it
# starts (RabbitMQ died with dist_port_already_used right after a bench). A port there is refused
# unless it is reserved (ip_local_reserved_ports: the kernel then never hands it out).
EPHEMERAL_RANGE_FILE="${EPHEMERAL_RANGE_FILE:-/proc/sys/net/ipv4/ip_local_port_range}"
RESERVED_PORTS_FILE="${RESERVED_PORTS_FILE:-/proc/sys/net/ipv4/ip_local_reserved_ports}"

# The port is in ip_local_reserved_ports ("8080,25000-25010").
port_reserved() {
  local port="$1" item items=()
  [ -r "$RESERVED_PORTS_FILE" ] || return 1
  IFS=, read -r -a items <"$RESERVED_PORTS_FILE" || true
  for item in "${items[@]}"; do
    item="${item//[[:space:]]/}"
    case "$item" in
      '') ;;
      *-*) if [ "$port" -ge "${item%-*}" ] && [ "$port" -le "${item#*-}" ]; then return 0; fi ;;
      *) if [ "$port" -eq "$item" ]; then return 0; fi ;;
    esac
  done
  return 1
}

# check_ephemeral_ports "PORT VARIABLE WHAT"...: fails, with a line for each, when a port lies in
# the kernel's ephemeral range and is not reserved. VARIABLE is the setting that moves it.
check_ephemeral_ports() {
  local entry port var what low high bad=0
  [ -r "$EPHEMERAL_RANGE_FILE" ] || return 0 # not Linux: nothing hands out ports behind our back
  read -r low high <"$EPHEMERAL_RANGE_FILE"
  for entry in "$@"; do
    read -r port var what <<<"$entry"
    if [ "$port" -ge "$low" ] && [ "$port" -le "$high" ] && ! port_reserved "$port"; then
      printf 'error: %s: port %s lies in the kernel'"'"'s ephemeral port range %s-%s (%s), where any outgoing connection of this machine may hold it when the server starts. Move it below %s or above %s (%s in the environment, or infra/config/ports.txt), or reserve it: sudo sysctl -w net.ipv4.ip_local_reserved_ports=%s (add it to what the file already lists)\n' \
        "$what" "$port" "$low" "$high" "$EPHEMERAL_RANGE_FILE" "$low" "$high" "$var" "$port" >&2
      bad=1
    fi
  done
  return "$bad"
}

# The ports a server of script/services listens on, one a line: PORT VARIABLE WHAT (for
# check_ephemeral_ports and the messages about a port that is taken).
server_ports() {
  local port i var
  case "$1" in
    postgres) echo "$PG_PORT PG_PORT postgres" ;;
    redis-cluster)
      for i in 0 1 2; do
        port=$((REDIS_CLUSTER_PORT + i))
        echo "$port REDIS_CLUSTER_PORT redis-cluster (master $((i + 1)) of 3: REDIS_CLUSTER_PORT + $i)"
        echo "$((port + 10000)) REDIS_CLUSTER_PORT redis-cluster (the cluster bus of master $port: its port + 10000)"
      done ;;
    redis-sentinel)
      echo "$REDIS_SENTINEL_PORT REDIS_SENTINEL_PORT redis-sentinel (the data nodes, on 127.0.0.21 and .22)"
      echo "$((REDIS_SENTINEL_PORT + 10000)) REDIS_SENTINEL_PORT redis-sentinel (the Sentinels, on 127.0.0.21-.23: REDIS_SENTINEL_PORT + 10000)" ;;
    redis-cluster-r2)
      echo "$REDIS_CLUSTER_R2_PORT REDIS_CLUSTER_R2_PORT redis-cluster-r2 (the six nodes, on 127.0.0.31-.36)"
      echo "$((REDIS_CLUSTER_R2_PORT + 10000)) REDIS_CLUSTER_R2_PORT redis-cluster-r2 (the cluster bus: REDIS_CLUSTER_R2_PORT + 10000)" ;;
    postgres-patroni | postgres-patroni-sync)
      var="${1^^}"; var="${var//-/_}_PORT"; port="${!var}"
      echo "$port $var $1 (PostgreSQL, on the three nodes' addresses)"
      echo "$((port + 1000)) $var $1 (Patroni's REST API: $var + 1000)"
      echo "$((port + 2000)) $var $1 (etcd's clients: $var + 2000)"
      echo "$((port + 3000)) $var $1 (etcd's peers: $var + 3000)" ;;
    nats-r3)
      echo "$NATS_R3_PORT NATS_R3_PORT nats-r3 (clients, on 127.0.0.41-.43)"
      echo "$((NATS_R3_PORT + 10000)) NATS_R3_PORT nats-r3 (the routes between the nodes: NATS_R3_PORT + 10000)"
      echo "$((NATS_R3_PORT + 1000)) NATS_R3_PORT nats-r3 (monitoring: NATS_R3_PORT + 1000)" ;;
    rabbitmq-r3)
      echo "$RABBITMQ_R3_PORT RABBITMQ_R3_PORT rabbitmq-r3 (AMQP, on 127.0.0.71-.73)"
      for i in 0 1 2; do echo "$((RABBITMQ_R3_PORT + 10000 + i)) RABBITMQ_R3_PORT rabbitmq-r3 (node $((i + 1))'s Erlang distribution port: RABBITMQ_R3_PORT + $((10000 + i)))"; done ;;
    rabbitmq)
      echo "$RABBITMQ_PORT RABBITMQ_PORT rabbitmq (AMQP)"
      echo "$RABBITMQ_DIST_PORT RABBITMQ_DIST_PORT rabbitmq (its Erlang distribution port)" ;;
    *) var="${1^^}"; var="${var//-/_}_PORT"; echo "${!var} $var $1" ;;
  esac
}

# Every server script/services manages, in start order.
ALL_SERVERS=(postgres tarantool redis-cache redis-persistent redis-aof redis-rdb beanstalkd redis-cluster redis-sentinel redis-cluster-r2 rabbitmq rabbitmq-r3 nats nats-r3 postgres-patroni postgres-patroni-sync)

# The tests' own servers keep their data apart too.
TEST_DATA_DIR="${TEST_DATA_DIR:-$ROOT/.data/test}"

PG_BIN="$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)"

# The tools' Release builds: tank (the runner) and lab (bench, report, compare, verdict, cluster,
# siege, ab). build_tools builds them first when a source of theirs is newer than the dll.
TANK_DLL="$ROOT/tank/Tank.Cli/bin/Release/net10.0/tank.dll"
LAB_DLL="$ROOT/lab/Lab.Cli/bin/Release/net10.0/lab.dll"
build_tools() {
  local dll project
  for project in tank/Tank.Cli lab/Lab.Cli; do
    dll="$TANK_DLL"; [ "$project" = lab/Lab.Cli ] && dll="$LAB_DLL"
    if [ ! -f "$dll" ] || [ -n "$(find "$ROOT/tank" "$ROOT/lab" "$ROOT/src" \( -name bin -o -name obj \) -prune -o \( -name '*.cs' -o -name '*.csproj' \) -newer "$dll" -print -quit)" ]; then
      log "building $project in Release"
      dotnet build "$ROOT/$project" -c Release --nologo --verbosity quiet >&2
    fi
  done
}

# servers_up_as_found SERVER...: brings the servers named up (every one: "${ALL_SERVERS[@]}"), and
# at exit stops those that were down before (the machine is left as found). Sets the EXIT trap.
servers_up_as_found() {
  local server servers=("$@")
  [ "${#servers[@]}" -gt 0 ] || die "servers_up_as_found: no server named"
  WAS_DOWN=()
  for server in "${servers[@]}"; do
    "$ROOT/script/services" status "$server" >/dev/null 2>&1 || WAS_DOWN+=("$server")
  done
  trap 'if [ "${#WAS_DOWN[@]}" -gt 0 ]; then "$ROOT/script/services" down "${WAS_DOWN[@]}" || true; fi' EXIT
  "$ROOT/script/services" up "${servers[@]}"
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
    # A row without a test port (the service of script/server) keeps the user's.
    port="TEST_${name}_PORT"; if [ -n "${!port}" ]; then printf -v "${name}_PORT" '%s' "${!port}"; fi
    export "${name}_PORT" "TEST_${name}_PORT"
  done
  export DATA_DIR TEST_INSTANCES TEST_DATA_DIR
  mapfile -t settings < <(service_settings | cut -d= -f1)
  unset "${settings[@]}"
}

# Every port the table's rows take with the ports NAME_PORT (prefix "") or TEST_NAME_PORT (TEST_),
# the Redis Cluster's other two masters and the three cluster bus ports included.
ports_taken() {
  local name var offset
  for name in "${PORT_NAMES[@]}"; do
    var="$1${name}_PORT"
    [ -n "${!var}" ] || continue
    echo "${!var}"
    for offset in $(port_offsets "$name"); do echo "$((${!var} + offset))"; done
  done
}

# The connection settings the service and the tests read, as ASP.NET configuration keys
# (Section__Key=value, one a line), for the servers on the current ports.
service_settings() {
  printf '%s\n' "Postgres__ConnectionString=Host=127.0.0.1;Port=$PG_PORT;Username=integration;Database=integration" \
    Tarantool__Host=127.0.0.1 "Tarantool__Port=$TARANTOOL_PORT" "Redis__Cache=127.0.0.1:$REDIS_CACHE_PORT" \
    "Redis__Persistent=127.0.0.1:$REDIS_PERSISTENT_PORT" "Redis__Aof=127.0.0.1:$REDIS_AOF_PORT" "Redis__Rdb=127.0.0.1:$REDIS_RDB_PORT" \
    "Redis__Cluster=127.0.0.1:$REDIS_CLUSTER_PORT,127.0.0.1:$((REDIS_CLUSTER_PORT + 1)),127.0.0.1:$((REDIS_CLUSTER_PORT + 2))" \
    "Redis__Sentinel=127.0.0.21:$((REDIS_SENTINEL_PORT + 10000)),127.0.0.22:$((REDIS_SENTINEL_PORT + 10000)),127.0.0.23:$((REDIS_SENTINEL_PORT + 10000)),serviceName=integration" \
    "Redis__ClusterR2=127.0.0.31:$REDIS_CLUSTER_R2_PORT,127.0.0.32:$REDIS_CLUSTER_R2_PORT,127.0.0.33:$REDIS_CLUSTER_R2_PORT,127.0.0.34:$REDIS_CLUSTER_R2_PORT,127.0.0.35:$REDIS_CLUSTER_R2_PORT,127.0.0.36:$REDIS_CLUSTER_R2_PORT" \
    Beanstalkd__Host=127.0.0.1 "Beanstalkd__Port=$BEANSTALKD_PORT" RabbitMq__Host=127.0.0.1 "RabbitMq__Port=$RABBITMQ_PORT" \
    "RabbitMq__R3Endpoints=127.0.0.71:$RABBITMQ_R3_PORT,127.0.0.72:$RABBITMQ_R3_PORT,127.0.0.73:$RABBITMQ_R3_PORT" \
    "Nats__Url=nats://127.0.0.1:$NATS_PORT" "Nats__R3Url=nats://127.0.0.41:$NATS_R3_PORT,nats://127.0.0.42:$NATS_R3_PORT,nats://127.0.0.43:$NATS_R3_PORT" \
    "Postgres__Patroni=Host=127.0.0.51,127.0.0.52,127.0.0.53;Port=$POSTGRES_PATRONI_PORT;Username=integration;Database=integration;Target Session Attributes=primary;Host Recheck Seconds=1" \
    "Postgres__PatroniSync=Host=127.0.0.61,127.0.0.62,127.0.0.63;Port=$POSTGRES_PATRONI_SYNC_PORT;Username=integration;Database=integration;Target Session Attributes=primary;Host Recheck Seconds=1"
}

# The service's runtime settings (IntegrationService/runtime.env: the GC's gen0 budget), as NAME=value
# lines for `env` in front of the command that starts the service; they are the service's alone, not
# the tools' (the load generator keeps its own).
service_runtime_settings() {
  grep -Ev '^[[:space:]]*(#|$)' "$ROOT/IntegrationService/runtime.env"
}

# Exports the settings; one the environment already gives keeps its value.
service_environment() {
  local setting name
  while IFS= read -r setting; do
    name="${setting%%=*}"
    if [ -n "${!name:-}" ]; then export "${name?}"; else export "${setting?}"; fi
  done < <(service_settings)
}
