#!/usr/bin/env bash
# Runs one Yandex.Tank test from the app host against the service on this host, with our
# tank/ files: generates the ammo with the tank tool, copies the load.yaml, runs the
# yandex/yandex-tank image, and leaves everything in one results directory.
# Installed by app.sh as /usr/local/bin/integration-shoot; run as root.
#
#   integration-shoot [--storage postgres] [--scenario author-read] [--count 100000] [--seed 1]
#                     [--schedule 'line(1, 2000, 5m)'] [--load tank/load.yaml] [--out DIR]
set -euo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
SERVICE_PORT="${SERVICE_PORT:-8080}"
SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0
TANK_IMAGE=yandex/yandex-tank
TANK_DLL=tank/Tank.Cli/bin/Release/net10.0/tank.dll

storage=postgres scenario=author-read count=100000 seed=1 schedule='' load="$ROOT/tank/load.yaml" out=''

log() { printf '==> shoot: %s\n' "$*" >&2; }
die() { printf 'shoot: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,9s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }

while [ "$#" -gt 0 ]; do
  case "$1" in
    --storage) storage="$2"; shift 2 ;;
    --scenario) scenario="$2"; shift 2 ;;
    --count) count="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --schedule) schedule="$2"; shift 2 ;;
    --load) load="$(readlink -f "$2")"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h | --help) usage 0 ;;
    *) printf 'shoot: unknown option %s\n' "$1" >&2; usage 2 ;;
  esac
done

[ "$(id -u)" -eq 0 ] || die "run as root (sudo integration-shoot …)"
[ -f "$load" ] || die "no load file $load"
[ -f "$ROOT/$TANK_DLL" ] || die "the tank tool is not built: run sudo integration-provision"
out="${out:-/var/lib/integrationservice/tank/$(date -u +%Y%m%dT%H%M%SZ)-$storage-$scenario}"
mkdir -p "$out"
cp "$load" "$out/load.yaml"

log "ammo: $count $scenario requests for storage $storage (seed $seed)"
docker run --rm --volume "$ROOT:/src:ro" --volume "$out:/out" --workdir /src "$SDK_IMAGE" \
  dotnet "$TANK_DLL" ammo --scenario "$scenario" --storage "$storage" --host "127.0.0.1:$SERVICE_PORT" \
  --count "$count" --seed "$seed" --format phantom --out /out/ammo.txt

# The load.yaml's own settings, with this host's target and ammo; -o values are YAML.
options=(
  -o "phantom.address=127.0.0.1:$SERVICE_PORT"
  -o "phantom.ammofile=/var/loadtest/ammo.txt"
  -o "phantom.ammo_type=phantom"
  -o "telegraf.enabled=false"
)
if [ -n "$schedule" ]; then options+=(-o "phantom.load_profile={load_type: rps, schedule: '$schedule'}"); fi

log "yandex-tank: $out/load.yaml${schedule:+, schedule $schedule}"
docker run --rm --network host --volume "$out:/var/loadtest" --workdir /var/loadtest "$TANK_IMAGE" \
  -c load.yaml "${options[@]}" 2>&1 | tee "$out/console.log"

log "results in $out (phout in logs/*/): fetch with"
log "  scp -r admin@<app_public_ip>:$out ."
