using Microsoft.Extensions.Configuration;

namespace IntegrationService;

/// <summary>
/// The service's default endpoints: the user's servers of script/services on loopback, at the ports
/// of infra/config/ports.txt (<see cref="PortTable"/>). A configuration source of the lowest
/// precedence, added only when the service runs from a checkout that holds the table: appsettings.json,
/// Section__Key variables (script/lib.sh's service_settings, the AWS host's service.env) and the command
/// line all win. A published image has no table and takes every endpoint from its environment
/// (infra/provision/app.sh); without one, options validation names the missing setting at start-up.
/// </summary>
public static class PortTableConfiguration
{
    /// <summary>The option keys the table's user ports give, as script/lib.sh's service_settings gives them.</summary>
    public static IReadOnlyDictionary<string, string?> Settings(PortTable table)
    {
        var cluster = table.User("REDIS_CLUSTER");
        return new Dictionary<string, string?>
        {
            ["Postgres:ConnectionString"] = $"Host=127.0.0.1;Port={table.User("PG")};Username=integration;Database=integration",
            ["Tarantool:Port"] = table.User("TARANTOOL").ToString(),
            ["Redis:Cache"] = $"127.0.0.1:{table.User("REDIS_CACHE")}",
            ["Redis:Persistent"] = $"127.0.0.1:{table.User("REDIS_PERSISTENT")}",
            ["Redis:Aof"] = $"127.0.0.1:{table.User("REDIS_AOF")}",
            ["Redis:Rdb"] = $"127.0.0.1:{table.User("REDIS_RDB")}",
            ["Redis:Cluster"] = string.Join(',', Enumerable.Range(cluster, 3).Select(port => $"127.0.0.1:{port}")),
            ["Redis:Sentinel"] = PortTable.SentinelEndpoint(table.User("REDIS_SENTINEL")),
            ["Redis:ClusterR2"] = PortTable.RedisClusterR2Endpoints(table.User("REDIS_CLUSTER_R2")),
            ["Beanstalkd:Port"] = table.User("BEANSTALKD").ToString(),
            ["RabbitMq:Port"] = table.User("RABBITMQ").ToString(),
            ["RabbitMq:R3Endpoints"] = PortTable.RabbitMqR3Endpoints(table.User("RABBITMQ_R3")),
            ["Nats:Url"] = $"nats://127.0.0.1:{table.User("NATS")}",
            ["Nats:R3Url"] = PortTable.NatsR3Url(table.User("NATS_R3")),
            ["Postgres:Patroni"] = PortTable.PatroniConnectionString(false, table.User("POSTGRES_PATRONI")),
            ["Postgres:PatroniSync"] = PortTable.PatroniConnectionString(true, table.User("POSTGRES_PATRONI_SYNC")),
        };
    }

    /// <summary>
    /// Adds the table's endpoints below every other source when the table is found (above
    /// <see cref="AppContext.BaseDirectory"/>, or the given one); a second call adds nothing.
    /// </summary>
    public static IConfigurationManager AddPortTableDefaults(this IConfigurationManager configuration, PortTable? table = null)
    {
        if (configuration.Sources.Any(source => source is PortTableSource)) return configuration;
        table ??= PortTable.OfThisCheckout();
        if (table is not null) configuration.Sources.Insert(0, new PortTableSource(Settings(table)));
        return configuration;
    }

    private sealed class PortTableSource(IReadOnlyDictionary<string, string?> settings) : IConfigurationSource
    {
        public IConfigurationProvider Build(IConfigurationBuilder builder) => new Provider(settings);
    }

    private sealed class Provider(IReadOnlyDictionary<string, string?> settings) : ConfigurationProvider
    {
        public override void Load() => Data = new Dictionary<string, string?>(settings, StringComparer.OrdinalIgnoreCase);
    }
}
