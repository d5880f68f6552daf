#!/usr/bin/env bash
# Provisions the database host: PostgreSQL, Tarantool, Redis (cache, persistent, and the queue
# instances redis-aof and redis-rdb) and Beanstalkd from Debian's packages, configured from
# infra/config/ (the files script/services uses locally), listening on loopback and the private
# address, with one password for the app host's logins. Idempotent: a second run re-applies
# the settings and restarts the servers.
#
#   infra/provision/db.sh up      install, configure, (re)start; the default
#   infra/provision/db.sh stop    stop the servers (test mode and hosts without systemd)
#
# Environment:
#   DB_PASSWORD          required: password of the `integration` login on every server
#   BIND_ADDRESS         private address to listen on besides loopback (default: this host's
#                        first address; 127.0.0.1 in test mode)
#   ALLOWED_CIDR         network PostgreSQL accepts password logins from (default: BIND_ADDRESS/32)
#   PROVISION_TEST_ROOT  test mode: every file under this directory, alternate loopback ports
#                        (25432 23301 26379 26380 26381 26382 21300), servers started
#                        directly, never through systemd; nothing outside the directory is
#                        changed except installing missing packages. infra/test/provision-db.sh
#                        uses it.
#   PG_PORT TARANTOOL_PORT REDIS_CACHE_PORT REDIS_PERSISTENT_PORT REDIS_AOF_PORT REDIS_RDB_PORT
#   BEANSTALKD_PORT      override ports
#
# Authentication (see infra/README.md): PostgreSQL scram-sha-256 for the integration role from
# ALLOWED_CIDR only; Tarantool user `integration` with the password; every Redis instance with
# requirepass. The AWS security group adds that only the app host reaches these ports.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CONFIG_DIR="$ROOT/infra/config"
TEST_ROOT="${PROVISION_TEST_ROOT:-}"

log() { printf '==> db.sh: %s\n' "$*" >&2; }
die() { printf 'db.sh: error: %s\n' "$*" >&2; exit 1; }

if [ -n "$TEST_ROOT" ]; then
  TEST_ROOT="$(cd "$TEST_ROOT" && pwd)"
  PG_PORT="${PG_PORT:-25432}" TARANTOOL_PORT="${TARANTOOL_PORT:-23301}"
  REDIS_CACHE_PORT="${REDIS_CACHE_PORT:-26379}" REDIS_PERSISTENT_PORT="${REDIS_PERSISTENT_PORT:-26380}"
  REDIS_AOF_PORT="${REDIS_AOF_PORT:-26381}" REDIS_RDB_PORT="${REDIS_RDB_PORT:-26382}"
  BEANSTALKD_PORT="${BEANSTALKD_PORT:-21300}"
  BIND_ADDRESS=127.0.0.1
  ETC="$TEST_ROOT/etc" VAR="$TEST_ROOT/var" LOGS="$TEST_ROOT/log" RUN="$TEST_ROOT/run"
  MANAGER=direct
  # Never collide with the development servers of script/services.
  for port in "$PG_PORT" "$TARANTOOL_PORT" "$REDIS_CACHE_PORT" "$REDIS_PERSISTENT_PORT" "$REDIS_AOF_PORT" \
    "$REDIS_RDB_PORT" "$BEANSTALKD_PORT"; do
    case "$port" in 15432 | 13301 | 16379 | 16380 | 16381 | 16382 | 11300) die "test mode must not use port $port (script/services uses it)" ;; esac
  done
else
  PG_PORT="${PG_PORT:-5432}" TARANTOOL_PORT="${TARANTOOL_PORT:-3301}"
  REDIS_CACHE_PORT="${REDIS_CACHE_PORT:-6379}" REDIS_PERSISTENT_PORT="${REDIS_PERSISTENT_PORT:-6380}"
  REDIS_AOF_PORT="${REDIS_AOF_PORT:-6381}" REDIS_RDB_PORT="${REDIS_RDB_PORT:-6382}"
  BEANSTALKD_PORT="${BEANSTALKD_PORT:-11300}"
  BIND_ADDRESS="${BIND_ADDRESS:-$(hostname -I 2>/dev/null | awk '{print $1}')}"
  ETC=/etc/integrationservice VAR=/var/lib/integrationservice LOGS=/var/log/integrationservice RUN=/run/integrationservice
  if [ -d /run/systemd/system ]; then MANAGER=systemd; else MANAGER=direct; fi
fi
ALLOWED_CIDR="${ALLOWED_CIDR:-${BIND_ADDRESS}/32}"

is_root() { [ "$(id -u)" -eq 0 ]; }
# Runs a command as the given system user when we are root (PostgreSQL refuses root).
as_user() { local user="$1"; shift; if is_root; then runuser -u "$user" -- "$@"; else "$@"; fi; }
# Gives paths to a server's system user when we are root: PostgreSQL always runs as postgres,
# the other servers as their packages' users under systemd (and as the caller otherwise).
own() {
  local user="$1"; shift
  if is_root && { [ "$user" = postgres ] || [ "$MANAGER" = systemd ]; }; then chown -R "$user:$user" "$@"; fi
}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
wait_for_port() {
  local host="$1" port="$2" seconds="${3:-60}" i
  for ((i = 0; i < seconds * 10; i++)); do port_open "$host" "$port" && return 0; sleep 0.1; done
  return 1
}

# Listen addresses: loopback always, plus the private address when there is one.
addresses() { if [ "$BIND_ADDRESS" = 127.0.0.1 ]; then echo 127.0.0.1; else echo "127.0.0.1 $BIND_ADDRESS"; fi; }

# Writes a file only when its content changed; mode as given.
write_file() {
  local path="$1" mode="$2" tmp
  tmp="$(mktemp)"
  cat >"$tmp"
  if [ -f "$path" ] && cmp -s "$tmp" "$path"; then rm -f "$tmp"; else install -m "$mode" "$tmp" "$path"; rm -f "$tmp"; fi
}

# Stops a directly started daemon from its pid file and waits until it has exited.
stop_pidfile() {
  local name="$1" pidfile="$2" pid i
  if [ -f "$pidfile" ] && pid="$(cat "$pidfile")" && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    log "$name: stopping (pid $pid)"
    kill "$pid"
    for ((i = 0; i < 300; i++)); do kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }; sleep 0.1; done
    die "$name (pid $pid) did not stop"
  fi
  rm -f "$pidfile"
}

install_packages() {
  local packages=(postgresql tarantool redis-server beanstalkd) missing=() package
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  if [ "${#missing[@]}" -eq 0 ]; then log "packages present: ${packages[*]}"; return 0; fi
  is_root || die "missing packages ${missing[*]}: run as root to install them"
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

prepare_host() {
  mkdir -p "$ETC" "$VAR" "$LOGS" "$RUN"
  chmod 755 "$VAR" "$LOGS" "$RUN"
  if [ "$MANAGER" = systemd ]; then
    # The servers' packages start their default instances; ours replace them (same ports).
    systemctl disable --now redis-server.service beanstalkd.service beanstalkd.socket 2>/dev/null || true
    # Redis asks for overcommit; a backlog above the default suits a load test.
    write_file /etc/sysctl.d/90-integrationservice.conf 644 <<'EOF'
vm.overcommit_memory = 1
net.core.somaxconn = 4096
EOF
    sysctl -q --system >/dev/null || true
  fi
}

# Installs a systemd unit and (re)starts it, so changed settings apply.
systemd_unit() {
  local name="$1"
  write_file "/etc/systemd/system/$name.service" 644
  systemctl daemon-reload
  systemctl enable --quiet "$name.service"
  systemctl restart "$name.service"
}

# ---- PostgreSQL ------------------------------------------------------------------------------

pg_version() { find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -V | tail -n 1; }

postgres_up() {
  local version bin conf_dir data socket_dir
  version="$(pg_version)"; [ -n "$version" ] || die "PostgreSQL is not installed"
  bin="/usr/lib/postgresql/$version/bin"
  if [ "$MANAGER" = systemd ] || [ -z "$TEST_ROOT" ]; then
    # Debian's cluster: settings in /etc/postgresql/V/main, which includes conf.d/.
    conf_dir="/etc/postgresql/$version/main"
    [ -d "$conf_dir" ] || pg_createcluster "$version" main >/dev/null
    socket_dir=/var/run/postgresql
  else
    data="$VAR/postgres"; conf_dir="$data"; socket_dir="$RUN/postgres"
    mkdir -p "$data" "$socket_dir"; own postgres "$data" "$socket_dir"
    as_user postgres test -w "$data" ||
      die "the postgres user cannot write $data: make $TEST_ROOT and its parents readable by other users"
    if [ ! -f "$data/PG_VERSION" ]; then
      log "postgres: initdb in $data"
      as_user postgres "$bin/initdb" -D "$data" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C >/dev/null
    fi
    grep -q "^include_dir = 'conf.d'" "$data/postgresql.conf" ||
      echo "include_dir = 'conf.d'" | as_user postgres tee -a "$data/postgresql.conf" >/dev/null
  fi
  mkdir -p "$conf_dir/conf.d"
  # The same settings file as local runs; the host-specific lines sort after it and win.
  write_file "$conf_dir/conf.d/50-integration.conf" 644 <"$CONFIG_DIR/postgresql.conf"
  write_file "$conf_dir/conf.d/90-integration-host.conf" 644 <<EOF
# Written by infra/provision/db.sh: where this host's PostgreSQL listens.
port = $PG_PORT
listen_addresses = '$(addresses | tr ' ' ',')'
unix_socket_directories = '$socket_dir'
password_encryption = 'scram-sha-256'
EOF
  # pg_hba: the integration role with its password from ALLOWED_CIDR, in a block we own.
  local hba="$conf_dir/pg_hba.conf" begin='# BEGIN integrationservice' end='# END integrationservice'
  {
    sed "/^$begin\$/,/^$end\$/d" "$hba"
    printf '%s\n' "$begin" "host integration integration $ALLOWED_CIDR scram-sha-256" "$end"
  } | write_file "$hba" 640
  own postgres "$conf_dir"

  if [ "$MANAGER" = systemd ]; then
    log "postgres: restarting postgresql@$version-main on port $PG_PORT"
    systemctl enable --quiet postgresql.service
    systemctl restart "postgresql@$version-main.service"
  elif [ -z "$TEST_ROOT" ]; then
    log "postgres: restarting cluster $version/main (no systemd)"
    pg_ctlcluster "$version" main restart
  else
    touch "$LOGS/postgres.log"; own postgres "$LOGS/postgres.log"
    if as_user postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      as_user postgres "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    log "postgres: starting on $(addresses) port $PG_PORT"
    as_user postgres "$bin/pg_ctl" -D "$data" -l "$LOGS/postgres.log" -w -t 60 start >/dev/null
  fi
  wait_for_port 127.0.0.1 "$PG_PORT" 60 || die "postgres did not start"

  # The role's password is set on every run (the variable keeps it out of the process list).
  log "postgres: role and database integration"
  as_user postgres "$bin/psql" -h "$socket_dir" -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
    -v password="$DB_PASSWORD" >/dev/null <<'SQL'
SELECT 'CREATE ROLE integration LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'integration')\gexec
ALTER ROLE integration WITH LOGIN PASSWORD :'password';
SELECT 'CREATE DATABASE integration OWNER integration' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'integration')\gexec
SQL
}

postgres_stop() {
  local version data="$VAR/postgres"; version="$(pg_version)"
  [ -n "$version" ] && [ -f "$data/postmaster.pid" ] || return 0
  if as_user postgres "/usr/lib/postgresql/$version/bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    log "postgres: stopping"
    as_user postgres "/usr/lib/postgresql/$version/bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
  fi
}

# ---- Tarantool -------------------------------------------------------------------------------

tarantool_up() {
  mkdir -p "$ETC/tarantool" "$VAR/tarantool"
  install -m 644 "$CONFIG_DIR/tarantool/init.lua" "$ETC/tarantool/init.lua"
  # Tarantool 2.x listens on one address: the private one (loopback in test mode).
  write_file "$ETC/tarantool.env" 600 <<EOF
TARANTOOL_LISTEN=$BIND_ADDRESS:$TARANTOOL_PORT
TARANTOOL_WORK_DIR=$VAR/tarantool
TARANTOOL_USER=integration
TARANTOOL_PASSWORD=$DB_PASSWORD
EOF
  if [ "$MANAGER" = systemd ]; then
    own tarantool "$VAR/tarantool"
    log "tarantool: (re)starting integration-tarantool on $BIND_ADDRESS:$TARANTOOL_PORT"
    systemd_unit integration-tarantool <<EOF
[Unit]
Description=IntegrationService Tarantool (infra/config/tarantool/init.lua)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=tarantool
Group=tarantool
EnvironmentFile=$ETC/tarantool.env
ExecStart=/usr/bin/tarantool $ETC/tarantool/init.lua
Restart=on-failure
LimitNOFILE=65536
TimeoutStopSec=60

[Install]
WantedBy=multi-user.target
EOF
  else
    stop_pidfile tarantool "$RUN/tarantool.pid"
    log "tarantool: starting on $BIND_ADDRESS:$TARANTOOL_PORT"
    (
      set -a
      # shellcheck source=/dev/null
      . "$ETC/tarantool.env"
      set +a
      TARANTOOL_BACKGROUND=1 TARANTOOL_PID_FILE="$RUN/tarantool.pid" TARANTOOL_LOG="$LOGS/tarantool.log" \
        tarantool "$ETC/tarantool/init.lua"
    )
  fi
  wait_for_port "$BIND_ADDRESS" "$TARANTOOL_PORT" 60 || die "tarantool did not start: see its log"
}

# ---- Redis -----------------------------------------------------------------------------------

redis_up() {
  local name="$1" port="$2" conf="$ETC/$1.conf"
  mkdir -p "$VAR/$name"
  {
    echo "# Written by infra/provision/db.sh: infra/config/$name.conf, then this host's settings."
    cat "$CONFIG_DIR/$name.conf"
    echo
    echo "port $port"
    echo "bind $(addresses)"
    echo "dir $VAR/$name"
    echo "requirepass $DB_PASSWORD"
    if [ "$MANAGER" = systemd ]; then
      echo 'daemonize no'; echo 'supervised systemd'; echo 'logfile ""'
    else
      echo 'daemonize yes'; echo "pidfile $RUN/$name.pid"; echo "logfile $LOGS/$name.log"
    fi
  } | write_file "$conf" 640
  if [ "$MANAGER" = systemd ]; then
    own redis "$VAR/$name"; chgrp redis "$conf"
    log "$name: (re)starting integration-$name on $(addresses) port $port"
    systemd_unit "integration-$name" <<EOF
[Unit]
Description=IntegrationService Redis $name (infra/config/$name.conf)
After=network-online.target
Wants=network-online.target

[Service]
Type=notify
User=redis
Group=redis
ExecStart=/usr/bin/redis-server $conf
Restart=on-failure
LimitNOFILE=65536
TimeoutStopSec=60

[Install]
WantedBy=multi-user.target
EOF
  else
    stop_pidfile "$name" "$RUN/$name.pid"
    log "$name: starting on $(addresses) port $port"
    redis-server "$conf"
  fi
  wait_for_port 127.0.0.1 "$port" 30 || die "$name did not start"
}

# ---- Beanstalkd ------------------------------------------------------------------------------

# Flags from infra/config/beanstalkd.conf (comments and blank lines ignored).
beanstalkd_flags() { grep -v '^[[:space:]]*#' "$CONFIG_DIR/beanstalkd.conf" | xargs; }

beanstalkd_up() {
  local binlog="$VAR/beanstalkd" flags
  mkdir -p "$binlog"
  flags="$(beanstalkd_flags)"
  if [ "$MANAGER" = systemd ]; then
    own beanstalkd "$binlog"
    log "beanstalkd: (re)starting integration-beanstalkd on $BIND_ADDRESS:$BEANSTALKD_PORT"
    systemd_unit integration-beanstalkd <<EOF
[Unit]
Description=IntegrationService Beanstalkd (infra/config/beanstalkd.conf)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=beanstalkd
Group=beanstalkd
ExecStart=/usr/bin/beanstalkd -l $BIND_ADDRESS -p $BEANSTALKD_PORT -b $binlog $flags
Restart=on-failure
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
EOF
  else
    stop_pidfile beanstalkd "$RUN/beanstalkd.pid"
    log "beanstalkd: starting on $BIND_ADDRESS:$BEANSTALKD_PORT"
    # shellcheck disable=SC2086  # the flags are words
    setsid beanstalkd -l "$BIND_ADDRESS" -p "$BEANSTALKD_PORT" -b "$binlog" $flags \
      </dev/null >>"$LOGS/beanstalkd.log" 2>&1 &
    echo "$!" >"$RUN/beanstalkd.pid"
  fi
  wait_for_port "$BIND_ADDRESS" "$BEANSTALKD_PORT" 30 || die "beanstalkd did not start: see its log"
}

# ---- commands --------------------------------------------------------------------------------

up() {
  [ -n "${DB_PASSWORD:-}" ] || die "DB_PASSWORD is required"
  [[ "$DB_PASSWORD" =~ ^[A-Za-z0-9._-]{12,}$ ]] ||
    die "DB_PASSWORD must be at least 12 characters of A-Z a-z 0-9 . _ - (it goes into connection strings and configs)"
  [ -n "$BIND_ADDRESS" ] || die "no BIND_ADDRESS: set it to this host's private address"
  is_root || [ -n "$TEST_ROOT" ] || die "run as root (or with PROVISION_TEST_ROOT for a test)"
  log "${TEST_ROOT:+test mode in $TEST_ROOT, }listening on $(addresses); services via $MANAGER"
  install_packages
  prepare_host
  postgres_up
  tarantool_up
  redis_up redis-cache "$REDIS_CACHE_PORT"
  redis_up redis-persistent "$REDIS_PERSISTENT_PORT"
  redis_up redis-aof "$REDIS_AOF_PORT"
  redis_up redis-rdb "$REDIS_RDB_PORT"
  beanstalkd_up
  log "ready: postgres $PG_PORT, tarantool $TARANTOOL_PORT, redis-cache $REDIS_CACHE_PORT," \
    "redis-persistent $REDIS_PERSISTENT_PORT, redis-aof $REDIS_AOF_PORT, redis-rdb $REDIS_RDB_PORT," \
    "beanstalkd $BEANSTALKD_PORT"
}

stop() {
  if [ "$MANAGER" = systemd ]; then
    systemctl stop integration-tarantool integration-redis-cache integration-redis-persistent \
      integration-redis-aof integration-redis-rdb integration-beanstalkd 2>/dev/null || true
    systemctl stop postgresql.service || true
    return 0
  fi
  if [ -n "$TEST_ROOT" ]; then postgres_stop; else pg_ctlcluster "$(pg_version)" main stop 2>/dev/null || true; fi
  stop_pidfile tarantool "$RUN/tarantool.pid"
  stop_pidfile redis-cache "$RUN/redis-cache.pid"
  stop_pidfile redis-persistent "$RUN/redis-persistent.pid"
  stop_pidfile redis-aof "$RUN/redis-aof.pid"
  stop_pidfile redis-rdb "$RUN/redis-rdb.pid"
  stop_pidfile beanstalkd "$RUN/beanstalkd.pid"
}

case "${1:-up}" in
  up) up ;;
  stop) stop ;;
  *) die "usage: infra/provision/db.sh [up|stop]" ;;
esac
