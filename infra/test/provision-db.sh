#!/usr/bin/env bash
# Runs the database host's provisioning (infra/provision/db.sh) for real on this machine, in its
# test mode: everything under a temporary directory, loopback only, ports 25432 23301 26379
# 26380 26381 26382 21300, RabbitMQ 12673 (and its distribution port 22673), NATS 24222 and the
# Redis Cluster's 22391-22393 (never a port of script/services' servers, the user's or the tests',
# infra/config/ports.txt). Runs it twice (idempotence), checks that each server
# answers with the password and refuses without it and that the Redis Cluster is formed once.
# Then plays three dedicated Redis Cluster hosts (`db.sh redis-cluster`, masters 22394-22396, one
# of them creating the cluster), stops everything and removes the directory. Prints
# `provision: N passed, M failed`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DB_SH="$ROOT/infra/provision/db.sh"
PG_PORT=25432 TARANTOOL_PORT=23301 REDIS_CACHE_PORT=26379 REDIS_PERSISTENT_PORT=26380
REDIS_AOF_PORT=26381 REDIS_RDB_PORT=26382 BEANSTALKD_PORT=21300 RABBITMQ_PORT=12673 RABBITMQ_DIST_PORT=22673 NATS_PORT=24222
# The db host's own Redis Cluster (db.sh up), and three masters of as many dedicated hosts (db.sh
# redis-cluster); each master's cluster bus is its port + 10000: all of them, and RabbitMQ's
# distribution port, below the kernel's ephemeral range (32768 and up on Debian), where any
# outgoing connection of the machine could hold one and the server would not start.
CLUSTER_PORTS=(22391 22392 22393) HOST_PORTS=(22394 22395 22396) ABSENT_MASTER=22397
TEST_PORTS=("$PG_PORT" "$TARANTOOL_PORT" "$REDIS_CACHE_PORT" "$REDIS_PERSISTENT_PORT" "$REDIS_AOF_PORT"
  "$REDIS_RDB_PORT" "$BEANSTALKD_PORT" "$RABBITMQ_PORT" "$RABBITMQ_DIST_PORT" "$NATS_PORT"
  "${CLUSTER_PORTS[@]}" "${HOST_PORTS[@]}" "$ABSENT_MASTER")
for port in "${CLUSTER_PORTS[@]}" "${HOST_PORTS[@]}" "$ABSENT_MASTER"; do TEST_PORTS+=("$((port + 10000))"); done
# The user's servers of script/services (infra/config/ports.txt, the user column, the Redis
# Cluster's other two masters included), and one row's user port.
PORT_TABLE="$ROOT/infra/config/ports.txt"
mapfile -t DEV_PORTS < <(awk '!/^#/ && NF >= 3 && $2 != "-" { print $2; if ($1 == "REDIS_CLUSTER") print $2 + 1 "\n" $2 + 2 }' "$PORT_TABLE")
dev_port() { awk -v name="$1" '$1 == name { print $2 }' "$PORT_TABLE"; }
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

# The ports this test binds lie outside the kernel's ephemeral range: an outgoing connection there
# could hold one of them at the moment its server starts (in a CI run a cluster master whose bus
# port lay in that range never answered).
read -r ephemeral_low ephemeral_high </proc/sys/net/ipv4/ip_local_port_range
ephemeral_taken=()
for port in "${TEST_PORTS[@]}"; do
  if [ "$port" -ge "$ephemeral_low" ] && [ "$port" -le "$ephemeral_high" ]; then ephemeral_taken+=("$port"); fi
done
check "no port of this test lies in the ephemeral range $ephemeral_low-$ephemeral_high${ephemeral_taken[*]:+ (${ephemeral_taken[*]})}" \
  test "${#ephemeral_taken[@]}" -eq 0

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
# One field of a master's CLUSTER INFO or INFO cluster, e.g. cluster_field PORT cluster_state -> ok.
cluster_field() { redis_as "$1" "$PASSWORD" cluster info | tr -d '\r' | sed -n "s/^$2://p"; }
cluster_enabled() { redis_as "$1" "$PASSWORD" info cluster | tr -d '\r' | grep -qx 'cluster_enabled:1'; }
# A cluster of exactly these masters, serving every slot, as each of them sees it.
cluster_whole() {
  local port
  for port in "$@"; do
    [ "$(cluster_field "$port" cluster_state)/$(cluster_field "$port" cluster_slots_assigned)/$(cluster_field "$port" cluster_known_nodes)" \
      = "ok/16384/$#" ] || return 1
  done
}
# Every node of the master's cluster is announced on 127.0.0.1 (cluster-announce-ip), not elsewhere.
cluster_announced_on_loopback() {
  local nodes; nodes="$(redis_as "$1" "$PASSWORD" cluster nodes | tr -d '\r')"
  [ -n "$nodes" ] && ! grep -v ' 127\.0\.0\.1:' <<<"$nodes" | grep -q .
}
# A key written through one master is read back through another (redis-cli -c follows MOVED).
cluster_roundtrip() {
  local key="provision-test-$RANDOM"
  [ "$(redis_as "$1" "$PASSWORD" -c set "$key" value-ok)" = OK ] &&
    [ "$(redis_as "$2" "$PASSWORD" -c get "$key")" = value-ok ]
}
# Retries a check for up to 15 s: a restarted master takes a moment to see its cluster whole again.
eventually() { local i; for ((i = 0; i < 30; i++)); do "$@" && return 0; sleep 0.5; done; return 1; }
cluster_myid() { redis_as "$1" "$PASSWORD" cluster myid | tr -d '\r'; }
# One setting of a running Redis instance, e.g. redis_config PORT appendonly -> yes.
redis_config() { redis_as "$1" "$PASSWORD" config get "$2" | tail -n 1; }
beanstalkd_stats() {
  exec 4<>"/dev/tcp/127.0.0.1/$BEANSTALKD_PORT"
  printf 'stats\r\n' >&4
  local line; IFS= read -r -t 5 line <&4
  exec 4>&-
  [[ "$line" == OK* ]]
}
# RabbitMQ's user integration logs in with the password (asked of the node through rabbitmqctl).
rabbitmq_login() {
  printf 'rabbit_auth_backend_internal:user_login_authentication(<<"integration">>, [{password, <<"%s">>}]).\n' "$1" |
    HOME="$TEST_ROOT/var/rabbitmq" ERL_EPMD_ADDRESS=127.0.0.1 timeout 60 /usr/lib/rabbitmq/bin/rabbitmqctl -n integration@localhost eval |
    grep -q '^{ok,'
}
amqp_answers() {
  # shellcheck disable=SC2016  # $1 is expanded by the inner bash
  [ "$(timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && printf "AMQP\x00\x00\x09\x01" >&3 && head -c 1 <&3 | od -An -tx1' _ "$RABBITMQ_PORT" | tr -d ' ')" = 01 ]
}
# NATS answers PING after a CONNECT with the password (and -ERR without it); JetStream is on.
nats_as() {
  local line
  exec 5<>"/dev/tcp/127.0.0.1/$NATS_PORT"
  IFS= read -r -t 5 line <&5
  [[ "$line" == *'"jetstream":true'* ]] || { exec 5>&-; return 1; }
  printf 'CONNECT {"verbose":false,"user":"integration","pass":"%s"}\r\nPING\r\n' "$1" >&5
  IFS= read -r -t 5 line <&5
  exec 5>&-
  [[ "$line" == PONG* ]]
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
  check "$round: rabbitmq accepts integration with the password" rabbitmq_login "$PASSWORD"
  check "$round: rabbitmq refuses a wrong password" refuses rabbitmq_login wrong-password
  check "$round: rabbitmq's AMQP listener answers the protocol header with connection.start" amqp_answers
  check "$round: nats (JetStream) accepts integration with the password" nats_as "$PASSWORD"
  check "$round: nats refuses a wrong password" refuses nats_as wrong-password
  local port
  for port in "${CLUSTER_PORTS[@]}"; do
    check "$round: redis-cluster master $port answers with the password" test "$(redis_as "$port" "$PASSWORD" ping)" = PONG
    check "$round: redis-cluster master $port refuses a client without the password" redis_refuses "$port"
  done
  check "$round: redis-cluster runs infra/config/redis-cluster.conf (cluster_enabled:1)" cluster_enabled "${CLUSTER_PORTS[0]}"
  check "$round: redis-cluster runs infra/config/redis-cluster.conf (appendonly yes, fsync everysec, noeviction)" \
    test "$(redis_config "${CLUSTER_PORTS[1]}" appendonly) $(redis_config "${CLUSTER_PORTS[1]}" appendfsync) $(redis_config "${CLUSTER_PORTS[1]}" maxmemory-policy)" \
    = "yes everysec noeviction"
  check "$round: redis-cluster is formed of the three masters (cluster_state ok, 16384 slots, 3 nodes)" \
    cluster_whole "${CLUSTER_PORTS[@]}"
  check "$round: redis-cluster announces its masters on the bind address" cluster_announced_on_loopback "${CLUSTER_PORTS[0]}"
  check "$round: redis-cluster serves a key written through one master through another" \
    cluster_roundtrip "${CLUSTER_PORTS[0]}" "${CLUSTER_PORTS[2]}"
  check "$round: pg_hba holds exactly one integrationservice block" \
    test "$(grep -c '^# BEGIN integrationservice' "$TEST_ROOT/var/postgres/pg_hba.conf")" = 1
  check "$round: postgresql.conf includes conf.d exactly once" \
    test "$(grep -c "^include_dir = 'conf.d'" "$TEST_ROOT/var/postgres/postgresql.conf")" = 1
}

# Runs db.sh with the leading NAME=value arguments as its environment and the rest as its
# arguments; its output goes to the log.
db_sh() {
  local assignments=()
  while [ "$#" -gt 0 ] && [[ "$1" == *=* ]]; do assignments+=("$1"); shift; done
  env "${assignments[@]}" "$DB_SH" "$@" >>"$TEST_ROOT/db-sh.log" 2>&1
}
# Checks that `db.sh ARGS` exits 0, showing its log when it does not.
check_db_sh() {
  local title="$1"; shift
  : >"$TEST_ROOT/db-sh.log"
  if db_sh "$@"; then pass "$title"; else fail "$title"; sed 's/^/    /' "$TEST_ROOT/db-sh.log"; fi
}

first_id=''
for round in "first run" "second run"; do
  check_db_sh "$round: db.sh up exits 0" up
  verify "$round"
  if [ -z "$first_id" ]; then first_id="$(cluster_myid "${CLUSTER_PORTS[0]}" || true)"; fi
done
check "second run: redis-cluster kept, not created again (same node id)" \
  test -n "$first_id" -a "$(cluster_myid "${CLUSTER_PORTS[0]}")" = "$first_id"

# Three dedicated Redis Cluster hosts, played on loopback: hosts 1 and 2 only run their master;
# host 0 is also given every master and creates the cluster.
masters="127.0.0.1:${HOST_PORTS[0]} 127.0.0.1:${HOST_PORTS[1]} 127.0.0.1:${HOST_PORTS[2]}"
for port in "${HOST_PORTS[1]}" "${HOST_PORTS[2]}"; do
  check_db_sh "redis-cluster host with master $port: db.sh redis-cluster exits 0" REDIS_CLUSTER_PORTS="$port" redis-cluster
  check "redis-cluster host with master $port: waits to be joined (knows only itself)" \
    test "$(cluster_field "$port" cluster_known_nodes)" = 1
done
check_db_sh "redis-cluster host 0: db.sh redis-cluster creates the cluster of the three hosts" \
  REDIS_CLUSTER_PORTS="${HOST_PORTS[0]}" REDIS_CLUSTER_MASTERS="$masters" redis-cluster
check "redis-cluster hosts: formed of the three masters (cluster_state ok, 16384 slots, 3 nodes)" \
  cluster_whole "${HOST_PORTS[@]}"
check "redis-cluster hosts: a key written through host 0 is read through host 2" \
  cluster_roundtrip "${HOST_PORTS[0]}" "${HOST_PORTS[2]}"
host_id="$(cluster_myid "${HOST_PORTS[1]}" || true)"
check_db_sh "redis-cluster host 0: a second run exits 0" \
  REDIS_CLUSTER_PORTS="${HOST_PORTS[0]}" REDIS_CLUSTER_MASTERS="$masters" redis-cluster
check "redis-cluster host 0: the second run leaves the cluster as it was" \
  test -n "$host_id" -a "$(cluster_myid "${HOST_PORTS[1]}")" = "$host_id" -a "$(cluster_field "${HOST_PORTS[1]}" cluster_known_nodes)" = 3
check "redis-cluster hosts: the db host's own cluster is apart and whole" eventually cluster_whole "${CLUSTER_PORTS[@]}"
check "redis-cluster hosts: the db host's PostgreSQL is untouched" test "$(psql_as "$PASSWORD" 'select 1')" = 1
check "db.sh redis-cluster gives up when a master never answers" refuses db_sh REDIS_CLUSTER_WAIT=3 \
  REDIS_CLUSTER_PORTS="${HOST_PORTS[0]}" REDIS_CLUSTER_MASTERS="127.0.0.1:${HOST_PORTS[1]} 127.0.0.1:${HOST_PORTS[2]} 127.0.0.1:$ABSENT_MASTER" \
  redis-cluster
# A master whose cluster bus port another process holds would bind its port, exit, and be waited
# for as if it were another host's: db.sh stops at once and names the port (the wait is 600 s).
bus_holder_output="$TEST_ROOT/bus-holder.out"
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("listening", flush=True); time.sleep(120)' \
  "$((ABSENT_MASTER + 10000))" >"$bus_holder_output" &
bus_holder=$!
eventually grep -q listening "$bus_holder_output" || true
bus_output="$(timeout 120 env REDIS_CLUSTER_WAIT=600 REDIS_CLUSTER_PORTS="$ABSENT_MASTER" "$DB_SH" redis-cluster 2>&1)" && bus_rc=0 || bus_rc=$?
kill "$bus_holder" 2>/dev/null || true
wait "$bus_holder" 2>/dev/null || true
check "db.sh redis-cluster stops at once when a master's bus port is taken, and names it" \
  test "$bus_rc" != 0 -a "$bus_rc" != 124 -a -n "$(grep -F "cluster bus port $((ABSENT_MASTER + 10000))" <<<"$bus_output")"
check "db.sh redis-cluster refuses masters that are not one cluster (never merges two)" refuses db_sh \
  REDIS_CLUSTER_PORTS="${HOST_PORTS[0]}" REDIS_CLUSTER_MASTERS="127.0.0.1:${HOST_PORTS[0]} 127.0.0.1:${HOST_PORTS[1]} 127.0.0.1:${CLUSTER_PORTS[0]}" \
  redis-cluster
check "db.sh redis-cluster refuses a cluster of fewer than three masters" refuses db_sh \
  REDIS_CLUSTER_PORTS="${HOST_PORTS[0]}" REDIS_CLUSTER_MASTERS="127.0.0.1:${HOST_PORTS[0]} 127.0.0.1:${HOST_PORTS[1]}" redis-cluster
check "the clusters are still whole after the refusals" eventually cluster_whole "${HOST_PORTS[@]}"

# The development servers of script/services were not touched.
for port in "${dev_open[@]}"; do check "development server on $port still up" port_open "$port"; done

check "db.sh stop exits 0" "$DB_SH" stop
for port in "${TEST_PORTS[@]}"; do
  check "port $port closed after stop" refuses port_open "$port"
done
check "db.sh refuses a development port in test mode" refuses env PG_PORT="$(dev_port PG)" "$DB_SH" up
check "db.sh refuses redis-aof's development port in test mode" refuses env REDIS_AOF_PORT="$(dev_port REDIS_AOF)" "$DB_SH" up
check "db.sh refuses redis-rdb's development port in test mode" refuses env REDIS_RDB_PORT="$(dev_port REDIS_RDB)" "$DB_SH" up
check "db.sh refuses RabbitMQ's development distribution port in test mode" refuses env RABBITMQ_DIST_PORT="$(dev_port RABBITMQ_DIST)" "$DB_SH" up
check "db.sh refuses the Redis Cluster's development port in test mode" refuses env REDIS_CLUSTER_PORTS="$(dev_port REDIS_CLUSTER)" "$DB_SH" redis-cluster
check "db.sh refuses a Redis Cluster port whose bus is a development port" \
  refuses env REDIS_CLUSTER_PORTS="$(($(dev_port REDIS_CLUSTER) + 1 - 10000))" "$DB_SH" redis-cluster
check "db.sh refuses a port in the kernel's ephemeral range" refuses env RABBITMQ_DIST_PORT="$ephemeral_low" "$DB_SH" up
check "db.sh refuses a Redis Cluster port without room for its bus port" refuses env REDIS_CLUSTER_PORTS=60000 "$DB_SH" redis-cluster

echo "provision: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
