#!/usr/bin/env bash
# Provisions the database host: PostgreSQL, Tarantool, Redis (cache, persistent, and the queue
# instances redis-aof and redis-rdb), the masters of the Redis Cluster, Beanstalkd, RabbitMQ and
# NATS (JetStream) from Debian's packages, configured from infra/config/ (the files script/services uses locally), listening on
# loopback and the private address, with one password for the app host's logins. Idempotent: a
# second run re-applies the settings and restarts the servers.
#
#   infra/provision/db.sh up             install, configure, (re)start; the default
#   infra/provision/db.sh redis-cluster  only the Redis Cluster masters of REDIS_CLUSTER_PORTS (a
#                                        dedicated Redis Cluster host), and the cluster's creation
#                                        when this host is given REDIS_CLUSTER_MASTERS
#   infra/provision/db.sh stop           stop the servers (test mode and hosts without systemd)
#
# Environment:
#   DB_PASSWORD          required: password of the `integration` login on every server
#   BIND_ADDRESS         private address to listen on besides loopback (default: this host's
#                        first address; 127.0.0.1 in test mode)
#   ALLOWED_CIDR         network PostgreSQL accepts password logins from (default: BIND_ADDRESS/32)
#   PROVISION_TEST_ROOT  test mode: every file under this directory, alternate loopback ports
#                        (25432 23301 26379 26380 26381 26382 21300, RabbitMQ 12673 and its
#                        distribution port 22673, NATS 24222, Redis Cluster 22391-22393; a bus or
#                        distribution port stays below the kernel's ephemeral range, where an
#                        outgoing connection could take it), never a port of script/services'
#                        servers (infra/config/ports.txt), servers started directly, never through
#                        systemd; nothing outside the directory is changed except installing
#                        missing packages. infra/test/provision-db.sh uses it.
#   PG_PORT TARANTOOL_PORT REDIS_CACHE_PORT REDIS_PERSISTENT_PORT REDIS_AOF_PORT REDIS_RDB_PORT
#   BEANSTALKD_PORT RABBITMQ_PORT RABBITMQ_DIST_PORT NATS_PORT
#                        override ports (RABBITMQ_DIST_PORT: RabbitMQ's Erlang distribution port,
#                        on loopback only; default 25672, RabbitMQ's own). Every port must lie
#                        outside the kernel's ephemeral range (ip_local_port_range) unless it is
#                        reserved (ip_local_reserved_ports): db.sh refuses it otherwise.
#   REDIS_CLUSTER_PORTS  ports of the Redis Cluster masters this host runs, space-separated
#                        (infra/config/redis-cluster.conf; each one's cluster bus is its port + 10000).
#                        Default "7001 7002 7003" (test mode "22391 22392 22393"); set but empty: none
#   REDIS_CLUSTER_MASTERS every master of the cluster, "host:port ...", given to the one host that
#                        creates it: that host waits until each answers, then runs
#                        `redis-cli --cluster create` once (never on a cluster already formed).
#                        Empty: this host's own masters when it runs three or more, else none
#                        (another host creates the cluster)
#   REDIS_CLUSTER_WAIT   seconds to wait for the other masters (default 900: they provision too)
#
# Authentication (see infra/README.md): PostgreSQL scram-sha-256 for the integration role from
# ALLOWED_CIDR only; Tarantool user `integration` with the password; every Redis instance with
# requirepass; RabbitMQ user `integration` with the password; NATS user `integration` with the
# password. The AWS security group adds that only the app host reaches these ports.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CONFIG_DIR="$ROOT/infra/config"
TEST_ROOT="${PROVISION_TEST_ROOT:-}"

log() { printf '==> db.sh: %s\n' "$*" >&2; }
die() { printf 'db.sh: error: %s\n' "$*" >&2; exit 1; }

for port in ${REDIS_CLUSTER_PORTS:-}; do
  if ! [[ "$port" =~ ^[1-9][0-9]{0,4}$ ]] || [ "$port" -gt 55535 ]; then
    die "REDIS_CLUSTER_PORTS: '$port' is not a port up to 55535 (its cluster bus is port + 10000)"
  fi
done

# Every port of script/services' servers, the user's and the tests' (infra/config/ports.txt, the
# Redis Cluster's other two masters and its bus ports included), one a line.
script_services_ports() {
  local name user test _note port
  while read -r name user test _note; do
    case "$name" in '' | '#'*) continue ;; esac
    for port in "$user" "$test"; do
      [ "$port" != - ] || continue
      echo "$port"
      if [ "$name" = REDIS_CLUSTER ]; then printf '%s\n' "$((port + 1))" "$((port + 2))" "$((port + 10000))" "$((port + 10001))" "$((port + 10002))"; fi
    done
  done <"$CONFIG_DIR/ports.txt"
}

if [ -n "$TEST_ROOT" ]; then
  TEST_ROOT="$(cd "$TEST_ROOT" && pwd)"
  PG_PORT="${PG_PORT:-25432}" TARANTOOL_PORT="${TARANTOOL_PORT:-23301}"
  REDIS_CACHE_PORT="${REDIS_CACHE_PORT:-26379}" REDIS_PERSISTENT_PORT="${REDIS_PERSISTENT_PORT:-26380}"
  REDIS_AOF_PORT="${REDIS_AOF_PORT:-26381}" REDIS_RDB_PORT="${REDIS_RDB_PORT:-26382}"
  BEANSTALKD_PORT="${BEANSTALKD_PORT:-21300}"
  RABBITMQ_PORT="${RABBITMQ_PORT:-12673}" RABBITMQ_DIST_PORT="${RABBITMQ_DIST_PORT:-22673}" NATS_PORT="${NATS_PORT:-24222}"
  REDIS_CLUSTER_PORTS="${REDIS_CLUSTER_PORTS-22391 22392 22393}"
  BIND_ADDRESS=127.0.0.1
  ETC="$TEST_ROOT/etc" VAR="$TEST_ROOT/var" LOGS="$TEST_ROOT/log" RUN="$TEST_ROOT/run"
  MANAGER=direct
  # Never collide with the servers of script/services, the user's or the tests' (a cluster master
  # also takes its bus port, port + 10000).
  cluster_bus_ports=()
  for port in $REDIS_CLUSTER_PORTS; do cluster_bus_ports+=("$((port + 10000))"); done
  mapfile -t local_ports < <(script_services_ports)
  for port in "$PG_PORT" "$TARANTOOL_PORT" "$REDIS_CACHE_PORT" "$REDIS_PERSISTENT_PORT" "$REDIS_AOF_PORT" \
    "$REDIS_RDB_PORT" "$BEANSTALKD_PORT" "$RABBITMQ_PORT" "$RABBITMQ_DIST_PORT" "$NATS_PORT" \
    $REDIS_CLUSTER_PORTS "${cluster_bus_ports[@]}"; do
    case " ${local_ports[*]} " in
      *" $port "*) die "test mode must not use port $port (script/services uses it: infra/config/ports.txt)" ;;
    esac
  done
else
  PG_PORT="${PG_PORT:-5432}" TARANTOOL_PORT="${TARANTOOL_PORT:-3301}"
  REDIS_CACHE_PORT="${REDIS_CACHE_PORT:-6379}" REDIS_PERSISTENT_PORT="${REDIS_PERSISTENT_PORT:-6380}"
  REDIS_AOF_PORT="${REDIS_AOF_PORT:-6381}" REDIS_RDB_PORT="${REDIS_RDB_PORT:-6382}"
  BEANSTALKD_PORT="${BEANSTALKD_PORT:-11300}"
  RABBITMQ_PORT="${RABBITMQ_PORT:-5672}" RABBITMQ_DIST_PORT="${RABBITMQ_DIST_PORT:-25672}" NATS_PORT="${NATS_PORT:-4222}"
  REDIS_CLUSTER_PORTS="${REDIS_CLUSTER_PORTS-7001 7002 7003}"
  BIND_ADDRESS="${BIND_ADDRESS:-$(hostname -I 2>/dev/null | awk '{print $1}')}"
  ETC=/etc/integrationservice VAR=/var/lib/integrationservice LOGS=/var/log/integrationservice RUN=/run/integrationservice
  if [ -d /run/systemd/system ]; then MANAGER=systemd; else MANAGER=direct; fi
fi
ALLOWED_CIDR="${ALLOWED_CIDR:-${BIND_ADDRESS}/32}"
REDIS_CLUSTER_MASTERS="${REDIS_CLUSTER_MASTERS:-}"
REDIS_CLUSTER_WAIT="${REDIS_CLUSTER_WAIT:-900}"

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

# Installs the Debian packages given (all of the db host's by default) that are missing.
install_packages() {
  local packages=("$@") missing=() package
  [ "${#packages[@]}" -gt 0 ] || packages=(postgresql tarantool redis-server beanstalkd rabbitmq-server nats-server)
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
    systemctl disable --now redis-server.service beanstalkd.service beanstalkd.socket rabbitmq-server.service nats-server.service \
      2>/dev/null || true
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

# One Redis instance NAME on PORT from infra/config/CONFIG.conf (CONFIG defaults to NAME).
redis_up() {
  local name="$1" port="$2" config="${3:-$1}" conf="$ETC/$1.conf"
  mkdir -p "$VAR/$name"
  {
    echo "# Written by infra/provision/db.sh: infra/config/$config.conf, then this host's settings."
    cat "$CONFIG_DIR/$config.conf"
    echo
    echo "port $port"
    echo "bind $(addresses)"
    echo "dir $VAR/$name"
    echo "requirepass $DB_PASSWORD"
    # A cluster master tells the other masters and the clients this address (not loopback).
    if [ "$config" = redis-cluster ]; then echo "cluster-announce-ip $BIND_ADDRESS"; fi
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
Description=IntegrationService Redis $name (infra/config/$config.conf)
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
    # Another process on the port or on the cluster bus port would make this one exit at once
    # while the other answers the port: say so now instead of waiting for a PONG that never comes.
    port_open 127.0.0.1 "$port" && die "$name: port $port is taken by another process"
    if [ "$config" = redis-cluster ] && port_open 127.0.0.1 "$((port + 10000))"; then
      die "$name: its cluster bus port $((port + 10000)) (port + 10000) is taken by another process"
    fi
    log "$name: starting on $(addresses) port $port"
    redis-server "$conf"
  fi
  wait_for_port 127.0.0.1 "$port" 30 || die "$name did not start$(log_tail "$name")"
  # Listening is not serving: the instance answers PING with the password, or the run stops here
  # with its log (a master that exits after binding would otherwise be waited for as a remote one).
  local deadline=$((SECONDS + 30))
  until master_answers "127.0.0.1:$port"; do
    [ "$SECONDS" -lt "$deadline" ] || die "$name on port $port does not answer PING with the password$(log_tail "$name")"
    sleep 0.5
  done
}

# ": the last lines of its log" for an instance NAME started directly (systemd keeps its own).
log_tail() {
  local file="$LOGS/$1.log"
  if [ "$MANAGER" != systemd ] && [ -s "$file" ]; then
    printf ': the last lines of %s:\n%s' "$file" "$(tail -n 15 "$file")"
  else
    echo " (journalctl -u integration-$1)"
  fi
}

# ---- Redis Cluster ---------------------------------------------------------------------------

# redis-cli with the password from the environment (REDISCLI_AUTH), never on the command line.
redis_cli() { REDISCLI_AUTH="$DB_PASSWORD" timeout 10 redis-cli --no-auth-warning "$@"; }
# One field of CLUSTER INFO of the master host:port, e.g. cluster_field 10.0.0.5:7001 cluster_state.
cluster_field() {
  redis_cli -h "${1%:*}" -p "${1##*:}" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"
}
master_answers() { [ "$(redis_cli -h "${1%:*}" -p "${1##*:}" ping 2>/dev/null)" = PONG ]; }
# True when every master given is a node of the first one's cluster.
cluster_of() {
  local nodes master id
  nodes="$(redis_cli -h "${1%:*}" -p "${1##*:}" cluster nodes 2>/dev/null | tr -d '\r')" || return 1
  for master in "$@"; do
    id="$(redis_cli -h "${master%:*}" -p "${master##*:}" cluster myid 2>/dev/null | tr -d '\r')" || return 1
    [ -n "$id" ] && grep -q "^$id " <<<"$nodes" || return 1
  done
}

# The masters of REDIS_CLUSTER_PORTS on this host, each its own instance redis-cluster-<port>.
redis_cluster_masters_up() {
  local port
  for port in $REDIS_CLUSTER_PORTS; do redis_up "redis-cluster-$port" "$port" redis-cluster; done
}

# Creates the cluster of the masters given (host:port) once all of them answer; a cluster already
# formed of them is left as it is (its slots and data stay), then waits until it serves every slot.
redis_cluster_create() {
  local masters=("$@") master deadline known assigned
  log "redis-cluster: waiting for ${#masters[@]} masters: ${masters[*]}"
  deadline=$((SECONDS + REDIS_CLUSTER_WAIT))
  for master in "${masters[@]}"; do
    until master_answers "$master"; do
      [ "$SECONDS" -lt "$deadline" ] || die "redis-cluster: the master $master did not answer within ${REDIS_CLUSTER_WAIT} s"
      sleep 2
    done
  done
  known="$(cluster_field "${masters[0]}" cluster_known_nodes)"
  assigned="$(cluster_field "${masters[0]}" cluster_slots_assigned)"
  if [ "$known" = "${#masters[@]}" ] && [ "$assigned" = 16384 ] && cluster_of "${masters[@]}"; then
    log "redis-cluster: already formed of ${masters[*]}"
  elif [ "$known" = 1 ] && [ "$assigned" = 0 ]; then
    log "redis-cluster: creating the cluster of ${masters[*]} (no replicas)"
    REDISCLI_AUTH="$DB_PASSWORD" timeout 120 redis-cli --no-auth-warning \
      --cluster create "${masters[@]}" --cluster-replicas 0 --cluster-yes >&2 ||
      die "redis-cluster: redis-cli --cluster create failed"
  else
    die "redis-cluster: ${masters[0]} knows $known nodes and $assigned slots, not a cluster of the ${#masters[@]} masters: see infra/README.md (Redis Cluster)"
  fi
  deadline=$((SECONDS + 60))
  for master in "${masters[@]}"; do
    until [ "$(cluster_field "$master" cluster_state)" = ok ]; do
      [ "$SECONDS" -lt "$deadline" ] || die "redis-cluster: $master does not report cluster_state:ok"
      sleep 0.5
    done
  done
  log "redis-cluster: ok, 16384 slots over ${masters[*]}"
}

# This host's masters, then the cluster's creation when this host creates it.
redis_cluster_up() {
  local masters=() ports=() port
  read -r -a ports <<<"$REDIS_CLUSTER_PORTS"
  [ "${#ports[@]}" -gt 0 ] || { log "redis-cluster: no masters on this host"; return 0; }
  redis_cluster_masters_up
  read -r -a masters <<<"$REDIS_CLUSTER_MASTERS"
  if [ "${#masters[@]}" -eq 0 ] && [ "${#ports[@]}" -ge 3 ]; then
    for port in "${ports[@]}"; do masters+=("$BIND_ADDRESS:$port"); done
  fi
  if [ "${#masters[@]}" -eq 0 ]; then
    log "redis-cluster: master(s) ${ports[*]} up; another host creates the cluster"
    return 0
  fi
  [ "${#masters[@]}" -ge 3 ] || die "REDIS_CLUSTER_MASTERS: a Redis Cluster needs at least three masters, got ${masters[*]}"
  redis_cluster_create "${masters[@]}"
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

# ---- RabbitMQ --------------------------------------------------------------------------------

# One node, integration@localhost, with its database, cookie (HOME) and logs under $VAR and $LOGS;
# AMQP on loopback and the private address, Erlang distribution (RABBITMQ_DIST_PORT) and epmd on
# loopback only. The Debian wrapper in /usr/sbin would switch users; the unit does that instead.
RABBITMQ_BIN=/usr/lib/rabbitmq/bin
RABBITMQ_NODE=integration@localhost
rabbitmq_env() {
  local dir="$VAR/rabbitmq"
  printf '%s\n' "HOME=$dir" "RABBITMQ_NODENAME=$RABBITMQ_NODE" "RABBITMQ_DIST_PORT=$RABBITMQ_DIST_PORT" \
    "RABBITMQ_MNESIA_BASE=$dir/mnesia" "RABBITMQ_LOG_BASE=$LOGS/rabbitmq" "RABBITMQ_CONFIG_FILE=$ETC/rabbitmq.conf" \
    "RABBITMQ_ENABLED_PLUGINS_FILE=$dir/enabled_plugins" "RABBITMQ_PID_FILE=$dir/rabbitmq.pid" \
    "RABBITMQ_CONF_ENV_FILE=/dev/null" "ERL_EPMD_ADDRESS=127.0.0.1" \
    "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1}"
}
# rabbitmqctl against our node, as the user the node runs as (the Erlang cookie is in its HOME).
rabbitmqctl_node() {
  local vars=()
  mapfile -t vars < <(rabbitmq_env)
  if is_root && [ "$MANAGER" = systemd ]; then
    runuser -u rabbitmq -- env "${vars[@]}" timeout 60 "$RABBITMQ_BIN/rabbitmqctl" -n "$RABBITMQ_NODE" "$@"
  else
    env "${vars[@]}" timeout 60 "$RABBITMQ_BIN/rabbitmqctl" -n "$RABBITMQ_NODE" "$@"
  fi
}

rabbitmq_up() {
  local dir="$VAR/rabbitmq" n=1 address vars=()
  mkdir -p "$dir" "$LOGS/rabbitmq"
  {
    echo "# Written by infra/provision/db.sh: infra/config/rabbitmq.conf, then this host's settings."
    grep -v '^default_pass' "$CONFIG_DIR/rabbitmq.conf"
    echo
    for address in $(addresses); do echo "listeners.tcp.$n = $address:$RABBITMQ_PORT"; n=$((n + 1)); done
    # Applies when the node first boots; every run also sets the password through rabbitmqctl.
    echo "default_pass = $DB_PASSWORD"
  } | write_file "$ETC/rabbitmq.conf" 640
  rabbitmq_env | write_file "$ETC/rabbitmq.env" 640
  if [ "$MANAGER" = systemd ]; then
    own rabbitmq "$dir" "$LOGS/rabbitmq"; chgrp rabbitmq "$ETC/rabbitmq.conf" "$ETC/rabbitmq.env"
    log "rabbitmq: (re)starting integration-rabbitmq on $(addresses) port $RABBITMQ_PORT"
    systemd_unit integration-rabbitmq <<EOF
[Unit]
Description=IntegrationService RabbitMQ (infra/config/rabbitmq.conf)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=rabbitmq
Group=rabbitmq
EnvironmentFile=$ETC/rabbitmq.env
ExecStart=$RABBITMQ_BIN/rabbitmq-server
Restart=on-failure
LimitNOFILE=65536
TimeoutStopSec=120

[Install]
WantedBy=multi-user.target
EOF
  else
    stop_pidfile rabbitmq "$dir/rabbitmq.pid"
    log "rabbitmq: starting on $(addresses) port $RABBITMQ_PORT (the first boot takes about half a minute)"
    mapfile -t vars < <(rabbitmq_env)
    setsid env "${vars[@]}" "$RABBITMQ_BIN/rabbitmq-server" </dev/null >>"$LOGS/rabbitmq.log" 2>&1 &
  fi
  wait_for_port 127.0.0.1 "$RABBITMQ_PORT" 180 || die "rabbitmq did not start: see $LOGS/rabbitmq/"
  # The password on every run (the expression goes through stdin, not the process list).
  log "rabbitmq: password of integration"
  printf 'rabbit_auth_backend_internal:change_password(<<"integration">>, <<"%s">>, <<"db.sh">>).\n' "$DB_PASSWORD" |
    rabbitmqctl_node eval >/dev/null || die "rabbitmq: setting the password of integration failed"
}

# ---- NATS ------------------------------------------------------------------------------------

# nats-server with JetStream (its streams under $VAR/nats) on the private address (loopback in
# test mode): like Tarantool, it listens on one address.
nats_up() {
  local store="$VAR/nats"
  mkdir -p "$store"
  {
    echo "# Written by infra/provision/db.sh: infra/config/nats.conf, then this host's settings."
    cat "$CONFIG_DIR/nats.conf"
    echo
    echo "listen: $BIND_ADDRESS:$NATS_PORT"
    echo "authorization { user: integration, password: \"$DB_PASSWORD\" }"
  } | write_file "$ETC/nats.conf" 640
  if [ "$MANAGER" = systemd ]; then
    own nats "$store"; chgrp nats "$ETC/nats.conf"
    log "nats: (re)starting integration-nats on $BIND_ADDRESS:$NATS_PORT"
    systemd_unit integration-nats <<EOF
[Unit]
Description=IntegrationService NATS with JetStream (infra/config/nats.conf)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=nats
Group=nats
ExecStart=/usr/sbin/nats-server -c $ETC/nats.conf -js -sd $store
Restart=on-failure
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
EOF
  else
    stop_pidfile nats "$RUN/nats.pid"
    log "nats: starting on $BIND_ADDRESS:$NATS_PORT"
    setsid nats-server -c "$ETC/nats.conf" -js -sd "$store" -P "$RUN/nats.pid" </dev/null >>"$LOGS/nats.log" 2>&1 &
  fi
  wait_for_port "$BIND_ADDRESS" "$NATS_PORT" 30 || die "nats did not start: see its log"
}

# ---- commands --------------------------------------------------------------------------------

# Every port this host will listen on lies outside the kernel's ephemeral range, where an outgoing
# connection could hold it when its server starts, or is reserved (ip_local_reserved_ports).
check_ephemeral_ports() {
  local low high port item reserved=() bad=() ports=("$@")
  [ -r /proc/sys/net/ipv4/ip_local_port_range ] || return 0
  read -r low high </proc/sys/net/ipv4/ip_local_port_range
  IFS=, read -r -a reserved </proc/sys/net/ipv4/ip_local_reserved_ports 2>/dev/null || true
  for port in "${ports[@]}"; do
    if [ "$port" -lt "$low" ] || [ "$port" -gt "$high" ]; then continue; fi
    for item in "${reserved[@]}"; do
      item="${item//[[:space:]]/}"
      case "$item" in
        *-*) if [ "$port" -ge "${item%-*}" ] && [ "$port" -le "${item#*-}" ]; then continue 2; fi ;;
        ?*) if [ "$port" -eq "$item" ]; then continue 2; fi ;;
      esac
    done
    bad+=("$port")
  done
  [ "${#bad[@]}" -eq 0 ] || die "port(s) ${bad[*]} lie in the kernel's ephemeral port range $low-$high" \
    "(/proc/sys/net/ipv4/ip_local_port_range), where an outgoing connection may hold one when its server starts:" \
    "choose ports outside it (PG_PORT … RABBITMQ_DIST_PORT, REDIS_CLUSTER_PORTS: a master's bus is its port + 10000)" \
    "or reserve them (net.ipv4.ip_local_reserved_ports)"
}

preflight() {
  [ -n "${DB_PASSWORD:-}" ] || die "DB_PASSWORD is required"
  [[ "$DB_PASSWORD" =~ ^[A-Za-z0-9._-]{12,}$ ]] ||
    die "DB_PASSWORD must be at least 12 characters of A-Z a-z 0-9 . _ - (it goes into connection strings and configs)"
  [ -n "$BIND_ADDRESS" ] || die "no BIND_ADDRESS: set it to this host's private address"
  is_root || [ -n "$TEST_ROOT" ] || die "run as root (or with PROVISION_TEST_ROOT for a test)"
  local port ports=()
  if [ "${1:-}" != redis-cluster ]; then
    ports=("$PG_PORT" "$TARANTOOL_PORT" "$REDIS_CACHE_PORT" "$REDIS_PERSISTENT_PORT" "$REDIS_AOF_PORT" "$REDIS_RDB_PORT"
      "$BEANSTALKD_PORT" "$RABBITMQ_PORT" "$RABBITMQ_DIST_PORT" "$NATS_PORT")
  fi
  for port in $REDIS_CLUSTER_PORTS; do ports+=("$port" "$((port + 10000))"); done
  check_ephemeral_ports "${ports[@]}"
  log "${TEST_ROOT:+test mode in $TEST_ROOT, }listening on $(addresses); services via $MANAGER"
}

up() {
  preflight
  install_packages
  prepare_host
  postgres_up
  tarantool_up
  redis_up redis-cache "$REDIS_CACHE_PORT"
  redis_up redis-persistent "$REDIS_PERSISTENT_PORT"
  redis_up redis-aof "$REDIS_AOF_PORT"
  redis_up redis-rdb "$REDIS_RDB_PORT"
  beanstalkd_up
  rabbitmq_up
  nats_up
  redis_cluster_up
  log "ready: postgres $PG_PORT, tarantool $TARANTOOL_PORT, redis-cache $REDIS_CACHE_PORT," \
    "redis-persistent $REDIS_PERSISTENT_PORT, redis-aof $REDIS_AOF_PORT, redis-rdb $REDIS_RDB_PORT," \
    "beanstalkd $BEANSTALKD_PORT, rabbitmq $RABBITMQ_PORT, nats $NATS_PORT, redis-cluster ${REDIS_CLUSTER_PORTS:-none}"
}

# A dedicated Redis Cluster host: Redis only, its masters, the cluster when it creates it.
redis_cluster_host() {
  preflight redis-cluster
  [ -n "$REDIS_CLUSTER_PORTS" ] || die "REDIS_CLUSTER_PORTS is empty: no master to run"
  install_packages redis-server
  prepare_host
  redis_cluster_up
  log "ready: redis-cluster master(s) $REDIS_CLUSTER_PORTS"
}

stop() {
  if [ "$MANAGER" = systemd ]; then
    systemctl stop integration-tarantool integration-redis-cache integration-redis-persistent \
      integration-redis-aof integration-redis-rdb integration-beanstalkd integration-rabbitmq integration-nats \
      'integration-redis-cluster-*' 2>/dev/null || true
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
  stop_pidfile rabbitmq "$VAR/rabbitmq/rabbitmq.pid"
  stop_pidfile nats "$RUN/nats.pid"
  local pidfile name
  for pidfile in "$RUN"/redis-cluster-*.pid; do
    [ -e "$pidfile" ] || continue
    name="$(basename "$pidfile" .pid)"
    stop_pidfile "$name" "$pidfile"
  done
}

case "${1:-up}" in
  up) up ;;
  redis-cluster) redis_cluster_host ;;
  stop) stop ;;
  *) die "usage: infra/provision/db.sh [up|redis-cluster|stop]" ;;
esac
