#!/usr/bin/env bash
# Provisions the application host: Docker from Debian's packages, the service in a container
# (host networking, so no NAT sits between the tank and the service) with connection strings
# to the db host, Yandex.Tank's Docker image, the tank tool (ammo generator) from tank/, and wrk.
# A node host of the sharded cluster runs the same without the tank (INSTALL_TANK=no).
# Idempotent: a second run rebuilds or re-pulls the image and replaces the container.
#
#   infra/provision/app.sh up
#
# Environment:
#   DB_HOST          required: this node's db host's private address
#   DB_PASSWORD      required: the password db.sh set for the integration logins
#   SERVICE_IMAGE    image to pull and run; empty: build the Dockerfile of this checkout
#   STORAGE_DEFAULT  Storage__Default of the service (default postgres)
#   KV_DEFAULT       Kv__Default: the store of /v0/entity (default postgres)
#   CLUSTER_NODES    Cluster__Nodes: every node's URL, comma-separated, the same on every node;
#                    empty: a single node that serves every key itself
#   CLUSTER_SELF     Cluster__Self: this node's URL, one of CLUSTER_NODES
#   REDIS_CLUSTER    Redis__Cluster: seed masters host:port,... (default: the three masters that
#                    db.sh runs on DB_HOST, ports 7001-7003)
#   INSTALL_TANK     yes (default): Yandex.Tank, the tank tool and wrk; no: the service only
#   SERVICE_PORT     port the service listens on (default 8080)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ETC=/etc/integrationservice
SERVICE_PORT="${SERVICE_PORT:-8080}"
STORAGE_DEFAULT="${STORAGE_DEFAULT:-postgres}"
SERVICE_IMAGE="${SERVICE_IMAGE:-}"
KV_DEFAULT="${KV_DEFAULT:-postgres}"
CLUSTER_NODES="${CLUSTER_NODES:-}"
CLUSTER_SELF="${CLUSTER_SELF:-}"
INSTALL_TANK="${INSTALL_TANK:-yes}"
CONTAINER=integrationservice
TANK_IMAGE=yandex/yandex-tank
# Images that build and run the tank tool (tank/Tank.Cli), the same .NET as the Dockerfile.
SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0

log() { printf '==> app.sh: %s\n' "$*" >&2; }
die() { printf 'app.sh: error: %s\n' "$*" >&2; exit 1; }

install_packages() {
  local packages=(docker.io git curl ca-certificates) missing=() package
  if [ "$INSTALL_TANK" = yes ]; then packages+=(wrk); fi
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    log "packages present: ${packages[*]}"
  fi
  if [ -d /run/systemd/system ]; then systemctl enable --now --quiet docker.service; fi
  docker info >/dev/null 2>&1 || die "the Docker daemon does not answer"
}

service_image() {
  if [ -n "$SERVICE_IMAGE" ]; then
    log "pulling $SERVICE_IMAGE"
    docker pull --quiet "$SERVICE_IMAGE" >/dev/null
    echo "$SERVICE_IMAGE"
  else
    log "building integrationservice:local from $ROOT/Dockerfile ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown))"
    docker build --quiet --tag integrationservice:local "$ROOT" >/dev/null
    echo integrationservice:local
  fi
}

run_service() {
  local image="$1"
  mkdir -p "$ETC"
  # Connection settings (ASP.NET configuration keys), readable by root only: they hold the password.
  # The ports are db.sh's production defaults. Redis__Password serves every Redis instance (the
  # queue instances redis-aof and redis-rdb and the Redis Cluster's masters included); Beanstalkd
  # has no password, and the tube stays the service's default (Beanstalkd__Tube).
  install -m 600 /dev/null "$ETC/service.env"
  cat >"$ETC/service.env" <<ENV
ASPNETCORE_URLS=http://0.0.0.0:$SERVICE_PORT
Postgres__ConnectionString=Host=$DB_HOST;Port=5432;Username=integration;Password=$DB_PASSWORD;Database=integration
Tarantool__Host=$DB_HOST
Tarantool__Port=3301
Tarantool__User=integration
Tarantool__Password=$DB_PASSWORD
Redis__Cache=$DB_HOST:6379
Redis__Persistent=$DB_HOST:6380
Redis__Aof=$DB_HOST:6381
Redis__Rdb=$DB_HOST:6382
Redis__Cluster=$REDIS_CLUSTER
Redis__Password=$DB_PASSWORD
Beanstalkd__Host=$DB_HOST
Beanstalkd__Port=11300
RabbitMq__Host=$DB_HOST
RabbitMq__Port=5672
RabbitMq__Password=$DB_PASSWORD
Nats__Url=nats://integration:$DB_PASSWORD@$DB_HOST:4222
Storage__Default=$STORAGE_DEFAULT
Kv__Default=$KV_DEFAULT
ENV
  # A node of the sharded cluster: every node's URL and its own (the service checks Self is one of them).
  if [ -n "$CLUSTER_NODES" ]; then
    printf 'Cluster__Nodes=%s\nCluster__Self=%s\n' "$CLUSTER_NODES" "$CLUSTER_SELF" >>"$ETC/service.env"
  fi
  if docker container inspect "$CONTAINER" >/dev/null 2>&1; then
    log "replacing the $CONTAINER container"
    docker rm --force "$CONTAINER" >/dev/null
  fi
  log "starting $CONTAINER ($image) on port $SERVICE_PORT, databases on $DB_HOST${CLUSTER_SELF:+, cluster node $CLUSTER_SELF}"
  docker run --detach --name "$CONTAINER" --restart unless-stopped --network host \
    --env-file "$ETC/service.env" --ulimit nofile=65536:65536 "$image" >/dev/null
}

# The db host may still be provisioning: wait a while, but a slow db host is not our failure
# (the service answers 503 until its backends are up and recovers by itself).
wait_for_health() {
  local i
  for ((i = 0; i < 180; i++)); do
    if curl --silent --fail --max-time 2 "http://127.0.0.1:$SERVICE_PORT/health" >/dev/null; then
      log "service healthy: http://127.0.0.1:$SERVICE_PORT/health"; return 0
    fi
    sleep 2
  done
  log "warning: /health is not 200 yet; see: docker logs $CONTAINER; curl -s http://127.0.0.1:$SERVICE_PORT/health"
}

install_tank() {
  log "pulling $TANK_IMAGE"
  docker pull --quiet "$TANK_IMAGE" >/dev/null
  log "building the tank tool (tank/Tank.Cli) with $SDK_IMAGE"
  docker run --rm --volume "$ROOT:/src" --workdir /src "$SDK_IMAGE" \
    dotnet build tank/Tank.Cli/Tank.Cli.csproj --configuration Release --verbosity quiet -nologo >/dev/null
  ln -sf "$ROOT/infra/provision/shoot.sh" /usr/local/bin/integration-shoot
  mkdir -p /var/lib/integrationservice/tank
}

up() {
  [ -n "${DB_HOST:-}" ] || die "DB_HOST is required (the db host's private address)"
  [ -n "${DB_PASSWORD:-}" ] || die "DB_PASSWORD is required"
  REDIS_CLUSTER="${REDIS_CLUSTER:-$DB_HOST:7001,$DB_HOST:7002,$DB_HOST:7003}"
  case "$INSTALL_TANK" in yes | no) ;; *) die "INSTALL_TANK must be yes or no, not '$INSTALL_TANK'" ;; esac
  if [ -n "$CLUSTER_NODES" ]; then
    case ",$CLUSTER_NODES," in *",$CLUSTER_SELF,"*) ;; *) die "CLUSTER_SELF '$CLUSTER_SELF' is not one of CLUSTER_NODES ($CLUSTER_NODES)" ;; esac
  fi
  [ "$(id -u)" -eq 0 ] || die "run as root"
  install_packages
  run_service "$(service_image)"
  if [ "$INSTALL_TANK" = yes ]; then install_tank; fi
  wait_for_health
  if [ "$INSTALL_TANK" = yes ]; then
    log "ready: service on :$SERVICE_PORT; shoot with: sudo integration-shoot --help"
  else
    log "ready: service on :$SERVICE_PORT (node $CLUSTER_SELF)"
  fi
}

case "${1:-up}" in
  up) up ;;
  *) die "usage: infra/provision/app.sh [up]" ;;
esac
