#!/usr/bin/env bash
# Checks the port table infra/config/ports.txt and what script/lib.sh and script/services do with
# it: every row well formed, no two rows sharing a port (the Redis Cluster's other masters and bus
# ports counted), every port outside the kernel's ephemeral range (Debian's, and this machine's),
# a port inside it refused with a message that names it, and `script/services up` refusing such a
# port, and a taken one, before it starts anything; `script/services heal` failing on a partition that
# dropped no packet (an nftables table of its own, root). Starts no server: every `script/services` call
# runs on a temporary DATA_DIR and ports no server uses. Prints `ports: N passed, M failed`.
# shellcheck disable=SC2016  # the single-quoted commands run in a shell that sourced script/lib.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TABLE="$ROOT/infra/config/ports.txt"
passed=0 failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; }
check() { local title="$1"; shift; if "$@" >/dev/null 2>&1; then pass "$title"; else fail "$title"; fi; }
refuses() { ! "$@"; }

TMP="$(mktemp -d /tmp/ports-test.XXXXXX)"
holder=""
cleanup() {
  if [ -n "$holder" ]; then kill "$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
echo "32768 60999" >"$TMP/debian-range"
: >"$TMP/no-reserved"

# Runs the last argument in a shell that sourced script/lib.sh, in an environment of its own: none of
# the caller's NAME_PORT, TEST_* or DATA_DIR (script/test runs this with the test instances' exported),
# only the VAR=value arguments before it.
lib() {
  local code="${*: -1}"
  env -i PATH="$PATH" HOME="${HOME:-/root}" "${@:1:$#-1}" bash -c 'set -euo pipefail; source "$0/script/lib.sh"; eval "$1"' "$ROOT" "$code"
}

# ---- the table ------------------------------------------------------------------------------

malformed="$(awk '!/^#/ && NF > 0 && (NF < 3 || $1 !~ /^[A-Z][A-Z0-9_]*$/ || ($2 != "-" && $2 !~ /^[1-9][0-9]*$/) || ($3 != "-" && $3 !~ /^[1-9][0-9]*$/) || ($2 > 65535) || ($3 > 65535)) { print NR ": " $0 }' "$TABLE")"
check "every row of the table is NAME USER TEST NOTE with ports or -${malformed:+ (not: $malformed)}" test -z "$malformed"
bad_offsets="$(awk '!/^#/ && $4 ~ /^\[/ && $0 !~ /^[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+\[\+[1-9][0-9]*( \+[1-9][0-9]*)*\]/ { print NR ": " $0 }' "$TABLE")"
check "a note's offsets are [+N +M …]${bad_offsets:+ (not: $bad_offsets)}" test -z "$bad_offsets"
names_twice="$(awk '!/^#/ && NF > 0 { print $1 }' "$TABLE" | sort | uniq -d | xargs)"
check "no name appears twice${names_twice:+ ($names_twice)}" test -z "$names_twice"

# Every port a row takes in either column, as "PORT NAME column": its own, and the others its servers
# take at script/lib.sh's offsets (port_offsets: the Redis Cluster's other masters and bus ports, the
# Sentinels, the NATS routes and monitoring, Patroni's REST API and etcd). $1: another table.
table_ports() {
  lib PORT_TABLE="${1:-$TABLE}" 'while read -r name user test _note; do
      case "$name" in "" | "#"*) continue ;; esac
      for column in user test; do
        port="$user"; if [ "$column" = test ]; then port="$test"; fi
        if [ "$port" = - ]; then continue; fi
        echo "$port $name $column"
        for offset in $(port_offsets "$name"); do echo "$((port + offset)) $name+$offset $column"; done
      done
    done <"$PORT_TABLE"'
}
shared_ports() { table_ports "$@" | sort -n | awk '$1 == last { print last ": " what " and " $2 " " $3 } { last = $1; what = $2 " " $3 }'; }
shared="$(shared_ports)"
check "no two rows (or columns) share a port${shared:+ ($shared)}" test -z "$shared"
# The same table with postgres-patroni's etcd peers (+ 3000) moved onto nats-r3's routes (+ 10000).
awk '$1 == "POSTGRES_PATRONI" { $2 = 21224; $3 = 21225 } { print }' "$TABLE" >"$TMP/clash.txt"
clash="$(shared_ports "$TMP/clash.txt" | xargs)"
check "... a port two rows take at their offsets counts as shared (${clash:-none found})" \
  test "$clash" = "24224: NATS_R3+10000 user and POSTGRES_PATRONI+3000 user 24225: NATS_R3+10000 test and POSTGRES_PATRONI+3000 test"
check "the table has the RabbitMQ distribution port as its own row" grep -qE '^RABBITMQ_DIST[[:space:]]' "$TABLE"

# ---- script/lib.sh reads it ----------------------------------------------------------------

row() { awk -v name="$1" -v col="$2" '$1 == name { print $col }' "$TABLE"; }
check "lib.sh: REDIS_AOF_PORT and TEST_REDIS_AOF_PORT are the table's" \
  test "$(lib 'echo "$REDIS_AOF_PORT $TEST_REDIS_AOF_PORT"')" = "$(row REDIS_AOF 2) $(row REDIS_AOF 3)"
check "lib.sh: RABBITMQ_DIST_PORT is the table's" test "$(lib 'echo "$RABBITMQ_DIST_PORT"')" = "$(row RABBITMQ_DIST 2)"
check "lib.sh: the environment wins over the table" test "$(lib REDIS_AOF_PORT=16481 'echo "$REDIS_AOF_PORT"')" = 16481
check "lib.sh: use_test_instances switches to the test column" \
  test "$(lib TEST_DATA_DIR="$TMP/test" 'use_test_instances; echo "$RABBITMQ_DIST_PORT $BENCH_PORT $USER_RABBITMQ_DIST_PORT"')" \
  = "$(row RABBITMQ_DIST 3) $(row BENCH 3) $(row RABBITMQ_DIST 2)"
check "lib.sh: a port that is not a number is refused" refuses env NATS_PORT=42x bash -c 'source "$0/script/lib.sh"' "$ROOT"

# ---- the ephemeral range ---------------------------------------------------------------------

for range in "$TMP/debian-range" /proc/sys/net/ipv4/ip_local_port_range; do
  [ -r "$range" ] || continue
  check "every port of the table, the user's and the tests', lies outside the ephemeral range $(xargs <"$range" | tr ' ' -) ($range)" \
    env EPHEMERAL_RANGE_FILE="$range" RESERVED_PORTS_FILE="$TMP/no-reserved" bash -c '
      source "$0/script/lib.sh"
      entries=(); for port in $(ports_taken "") $(ports_taken TEST_); do entries+=("$port TABLE table"); done
      check_ephemeral_ports "${entries[@]}"' "$ROOT"
done
inside="$(lib EPHEMERAL_RANGE_FILE="$TMP/debian-range" RESERVED_PORTS_FILE="$TMP/no-reserved" RABBITMQ_DIST_PORT=35674 \
  'check_ephemeral_ports "$(server_ports rabbitmq | tail -n 1)"' 2>&1)" && inside_rc=0 || inside_rc=$?
check "a port inside the range (RABBITMQ_DIST_PORT=35674) is refused" test "$inside_rc" -ne 0
check "the refusal names the port, the server, the range, the variable and the reservation" \
  grep -q "rabbitmq.*port 35674 .*32768-60999.*RABBITMQ_DIST_PORT.*ip_local_reserved_ports=35674" <<<"$inside"
echo "8080,35670-35680" >"$TMP/reserved"
check "a port inside the range that is reserved (ip_local_reserved_ports) is accepted" \
  env EPHEMERAL_RANGE_FILE="$TMP/debian-range" RESERVED_PORTS_FILE="$TMP/reserved" RABBITMQ_DIST_PORT=35674 \
  bash -c 'source "$0/script/lib.sh"; check_ephemeral_ports "$(server_ports rabbitmq | tail -n 1)"' "$ROOT"
check "the Redis Cluster's bus ports are checked too (REDIS_CLUSTER_PORT=22770: bus 32770-32772)" \
  refuses env EPHEMERAL_RANGE_FILE="$TMP/debian-range" RESERVED_PORTS_FILE="$TMP/no-reserved" REDIS_CLUSTER_PORT=22770 \
  bash -c 'source "$0/script/lib.sh"; mapfile -t e < <(server_ports redis-cluster); check_ephemeral_ports "${e[@]}"' "$ROOT"

# ---- script/services up refuses before it starts anything -------------------------------------

# A port no server of ours uses, outside the range; nats-server is never started on it.
free_port() {
  local port
  for port in $(seq 24950 24999); do
    [ "$port" != "${1:-}" ] || continue
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}
port="$(free_port)"
services() { env DATA_DIR="$TMP/data" NATS_PORT="$port" "$@" "$ROOT/script/services" up nats 2>&1; }
stop_nats() { env DATA_DIR="$TMP/data" NATS_PORT="$port" "$ROOT/script/services" down nats >/dev/null 2>&1 || true; }
echo "1024 65000" >"$TMP/wide-range"
output="$(services EPHEMERAL_RANGE_FILE="$TMP/wide-range" RESERVED_PORTS_FILE="$TMP/no-reserved")" && rc=0 || rc=$?
check "script/services up refuses a server whose port is in the ephemeral range" test "$rc" -ne 0
check "... naming the port and the server, and starts nothing" \
  test -n "$(grep "nats: port $port lies in the kernel's ephemeral port range 1024-65000" <<<"$output")" -a ! -e "$TMP/data/nats/nats.pid"
if [ "$rc" -eq 0 ]; then stop_nats; fi

python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("listening", flush=True); time.sleep(60)' \
  "$port" >"$TMP/holder.out" &
holder=$!
for _ in $(seq 50); do grep -q listening "$TMP/holder.out" && break; sleep 0.1; done
output="$(services)" && rc=0 || rc=$?
if [ "$rc" -eq 0 ]; then stop_nats; fi
check "script/services up refuses a server whose port is taken" test "$rc" -ne 0
check "... naming the port, the server, and who holds it (ss)" \
  grep -q "nats: port $port is taken by a listening socket of python3 (pid $holder).*NATS_PORT" <<<"$output"

kill "$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true; holder=""

# The issue's case: no server listens on the port, an outgoing connection holds it as its local port.
listen_port="$(free_port "$port")"
python3 -c 'import socket, sys, time
server = socket.socket(); server.bind(("127.0.0.1", int(sys.argv[2]))); server.listen()
client = socket.socket(); client.bind(("127.0.0.1", int(sys.argv[1]))); client.connect(("127.0.0.1", int(sys.argv[2])))
print("connected", flush=True); time.sleep(60)' "$port" "$listen_port" >"$TMP/holder.out" &
holder=$!
for _ in $(seq 50); do grep -q connected "$TMP/holder.out" && break; sleep 0.1; done
output="$(services)" && rc=0 || rc=$?
if [ "$rc" -eq 0 ]; then stop_nats; fi
check "script/services up refuses a port an outgoing connection holds (nothing listens there)" test "$rc" -ne 0
check "... naming the port, the server and the connection" \
  grep -q "nats: port $port is taken by a connection of python3 (pid $holder) to 127.0.0.1:$listen_port" <<<"$output"

# ---- script/services heal: a partition that dropped nothing fails -------------------------------

# A partition table as script/services names it, on a port no topology uses, with one counted rule; heal
# must remove it either way, and fail only when the rule dropped no packet (rules that cut nothing off).
partition_port=18997
heal() { env DATA_DIR="$TMP/data" NATS_R3_PORT="$partition_port" "$ROOT/script/services" heal nats-r3 2>&1; }
partition_table() {
  nft -f - <<NFT
table inet integration_partition_$partition_port {
  chain input {
    type filter hook input priority 0; policy accept;
    ip daddr 127.0.0.99 tcp dport $partition_port counter drop
  }
}
NFT
}
if command -v nft >/dev/null && partition_table 2>/dev/null; then
  output="$(heal)" && status=0 || status=$?
  check "script/services heal fails on a partition that dropped no packet" test "$status" -ne 0
  check "... saying so" grep -q "nats-r3: the partition dropped no packet" <<<"$output"
  check "... and removes it all the same" refuses nft list table inet "integration_partition_$partition_port"
  partition_table
  timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.99/$partition_port" 2>/dev/null || true
  output="$(heal)" && status=0 || status=$?
  check "script/services heal passes on a partition that dropped packets" test "$status" -eq 0
else
  fail "script/services heal: nftables is needed (run script/bootstrap) and root to add a table"
fi

echo "ports: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
