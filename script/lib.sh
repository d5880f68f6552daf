#!/usr/bin/env bash
# Shared settings for the scripts in script/: repository root, ports, data directories.
# Sourced, never run. Every port can be overridden from the environment.
# shellcheck disable=SC2034  # the variables here are read by the scripts that source this file

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="${DATA_DIR:-$ROOT/.data}"
LOG_DIR="$DATA_DIR/logs"
CONFIG_DIR="$ROOT/infra/config"

PG_PORT="${PG_PORT:-15432}"
TARANTOOL_PORT="${TARANTOOL_PORT:-13301}"
REDIS_CACHE_PORT="${REDIS_CACHE_PORT:-16379}"
REDIS_PERSISTENT_PORT="${REDIS_PERSISTENT_PORT:-16380}"
SERVICE_PORT="${PORT:-8080}"

export PG_PORT TARANTOOL_PORT REDIS_CACHE_PORT REDIS_PERSISTENT_PORT

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

# The connection settings the service and the tests read (ASP.NET configuration keys).
service_environment() {
  export Postgres__ConnectionString="${Postgres__ConnectionString:-Host=127.0.0.1;Port=$PG_PORT;Username=integration;Database=integration}"
  export Tarantool__Host="${Tarantool__Host:-127.0.0.1}"
  export Tarantool__Port="${Tarantool__Port:-$TARANTOOL_PORT}"
  export Redis__Cache="${Redis__Cache:-127.0.0.1:$REDIS_CACHE_PORT}"
  export Redis__Persistent="${Redis__Persistent:-127.0.0.1:$REDIS_PERSISTENT_PORT}"
}
