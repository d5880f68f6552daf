# The IntegrationService image: docker build -t integrationservice .
# Runs the API on port 8080 as a non-root user; configuration comes from the environment
# (Postgres__ConnectionString, Tarantool__Host, Redis__Cache, … — see infra/provision/app.sh): the image
# holds no infra/config/ports.txt, so no endpoint has a default, and one left unset stops the start-up
# with its name.

# ---- build: restore is its own layer, cached until a project or props file changes ----------
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /src
COPY Directory.Build.props Directory.Packages.props ./
COPY IntegrationService/IntegrationService.csproj IntegrationService/
COPY src/IntegrationService.Contracts/IntegrationService.Contracts.csproj src/IntegrationService.Contracts/
COPY src/Tarantool.Iproto/Tarantool.Iproto.csproj src/Tarantool.Iproto/
COPY src/Beanstalkd.Client/Beanstalkd.Client.csproj src/Beanstalkd.Client/
COPY src/Wire.Connections/Wire.Connections.csproj src/Wire.Connections/
RUN dotnet restore IntegrationService/IntegrationService.csproj
COPY IntegrationService/ IntegrationService/
COPY src/IntegrationService.Contracts/ src/IntegrationService.Contracts/
COPY src/Tarantool.Iproto/ src/Tarantool.Iproto/
COPY src/Beanstalkd.Client/ src/Beanstalkd.Client/
COPY src/Wire.Connections/ src/Wire.Connections/
RUN dotnet publish IntegrationService/IntegrationService.csproj --configuration Release --no-restore \
      --output /app -p:UseAppHost=false

# ---- runtime ---------------------------------------------------------------------------------
FROM mcr.microsoft.com/dotnet/aspnet:10.0 AS runtime
# curl for the HEALTHCHECK only (the aspnet image has none).
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app ./
ENV ASPNETCORE_URLS=http://+:8080 \
    DOTNET_gcServer=1
EXPOSE 8080
# The image's built-in non-root user (app, uid 1654).
USER $APP_UID
# /health is 200 only when every configured backend answers, 503 otherwise.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD curl --fail --silent --max-time 2 http://127.0.0.1:8080/health >/dev/null || exit 1
# runtime.env: the runtime settings runtimeconfig.json cannot carry (the GC's gen0 budget).
ENTRYPOINT ["/bin/sh", "-c", "set -a && . ./runtime.env && set +a && exec dotnet IntegrationService.dll \"$@\"", "IntegrationService"]
