using System.ComponentModel.DataAnnotations;
using IntegrationService.Storage.Nats;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.RabbitMq;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using IntegrationService.Tests.Fixtures;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// infra/config/ports.txt is the one source of the local servers' ports: the service's default
/// endpoints and the test fixture's ports come from it, and anything configured wins over it.
/// </summary>
public sealed class PortTableTests
{
    private static readonly PortTable Table = TestServers.Table;

    [Fact]
    public void TheServiceDefaultsToTheUsersServersOfTheTable()
    {
        using var host = Host(new());
        var redis = Options<RedisOptions>(host);

        Assert.Equal($"127.0.0.1:{Table.User("REDIS_AOF")}", redis.Aof);
        Assert.Equal($"127.0.0.1:{Table.User("REDIS_CACHE")}", redis.Cache);
        var cluster = Table.User("REDIS_CLUSTER");
        Assert.Equal($"127.0.0.1:{cluster},127.0.0.1:{cluster + 1},127.0.0.1:{cluster + 2}", redis.Cluster);
        var sentinels = Table.User("REDIS_SENTINEL") + 10000;
        Assert.Equal($"127.0.0.21:{sentinels},127.0.0.22:{sentinels},127.0.0.23:{sentinels},serviceName=integration", redis.Sentinel);
        var clusterR2 = Table.User("REDIS_CLUSTER_R2");
        Assert.Equal(string.Join(',', Enumerable.Range(31, 6).Select(n => $"127.0.0.{n}:{clusterR2}")), redis.ClusterR2);
        Assert.Equal(Table.User("PG"), new NpgsqlConnectionStringBuilder(Options<PostgresOptions>(host).ConnectionString).Port);
        Assert.Equal(Table.User("TARANTOOL"), Options<TarantoolOptions>(host).Port);
        Assert.Equal(Table.User("RABBITMQ"), Options<RabbitMqOptions>(host).Port);
        Assert.Equal($"nats://127.0.0.1:{Table.User("NATS")}", Options<NatsOptions>(host).Url);
        var r3 = Table.User("NATS_R3");
        Assert.Equal($"nats://127.0.0.41:{r3},nats://127.0.0.42:{r3},nats://127.0.0.43:{r3}", Options<NatsOptions>(host).R3Url);
    }

    [Fact]
    public void AnythingConfiguredWinsOverTheTable()
    {
        using var host = Host(new() { ["Redis:Aof"] = "10.0.0.5:6381", ["Tarantool:Port"] = "3301" });

        Assert.Equal("10.0.0.5:6381", Options<RedisOptions>(host).Aof);
        Assert.Equal(3301, Options<TarantoolOptions>(host).Port);
        Assert.Equal($"127.0.0.1:{Table.User("REDIS_RDB")}", Options<RedisOptions>(host).Rdb);
    }

    [Fact]
    public void WithoutTheTableAnEndpointLeftUnsetIsNamed()
    {
        Assert.Contains(Errors(new RedisOptions()), e => e.StartsWith("Redis:Aof is not set: Redis__Aof in the environment"));
        Assert.Contains(Errors(new TarantoolOptions()), e => e.StartsWith("Tarantool:Port is not set"));
        Assert.Contains(Errors(new PostgresOptions()), e => e.StartsWith("Postgres:ConnectionString is not set"));
    }

    private static IEnumerable<string> Errors(object options)
    {
        var errors = new List<ValidationResult>();
        Validator.TryValidateObject(options, new ValidationContext(options), errors, validateAllProperties: true);
        return errors.Select(e => e.ErrorMessage!);
    }

    [Fact]
    public void TheTableHasEveryRowTheServiceAndTheFixtureRead()
    {
        Assert.All(TestServers.ServerRows, row => Assert.NotEqual(Table.User(row), Table.Test(row)));
        Assert.Equal(PortTableConfiguration.Settings(Table).Keys.Order(), new[]
        {
            "Beanstalkd:Port", "Nats:R3Url", "Nats:Url", "Postgres:ConnectionString", "Postgres:Patroni", "Postgres:PatroniSync", "RabbitMq:Port", "RabbitMq:R3Endpoints", "Redis:Aof", "Redis:Cache",
            "Redis:Cluster", "Redis:ClusterR2", "Redis:Persistent", "Redis:Rdb", "Redis:Sentinel", "Tarantool:Port",
        });
        Assert.DoesNotContain(TestServers.RabbitMqDistributionPort, TestServers.DefaultPorts);
        // The Sentinels' port (the data nodes' + 10000) is a user's port too.
        Assert.Contains(Table.User("REDIS_SENTINEL") + 10000, TestServers.DefaultPorts);
        // And redis-cluster-r2's cluster bus (+ 10000).
        Assert.Contains(Table.User("REDIS_CLUSTER_R2") + 10000, TestServers.DefaultPorts);
        // And nats-r3's routes (+ 10000) and monitoring (+ 1000).
        Assert.Contains(Table.User("NATS_R3") + 10000, TestServers.DefaultPorts);
        Assert.Contains(Table.User("NATS_R3") + 1000, TestServers.DefaultPorts);
        // And rabbitmq-r3's three distribution ports (+ 10000, + 10001, + 10002).
        Assert.Contains(Table.User("RABBITMQ_R3") + 10002, TestServers.DefaultPorts);
    }

    [Fact]
    public void TheTestFixtureTakesTheTestColumn()
    {
        if (Environment.GetEnvironmentVariable("TEST_REDIS_AOF_PORT") is { Length: > 0 }) return; // script/test may move it
        Assert.Equal(Table.Test("REDIS_AOF"), TestServers.RedisAofPort);
        Assert.Contains(Table.User("REDIS_AOF"), TestServers.DefaultPorts);
    }

    [Fact]
    public void AMalformedRowIsRefusedWithItsLine()
    {
        var table = PortTable.Parse("ports.txt", ["# NAME USER TEST NOTE", "", "PG 15432 15433 PostgreSQL", "SERVICE 8080 - the service"]);
        Assert.Equal(15433, table.Test("PG"));
        Assert.Throws<InvalidOperationException>(() => table.Test("SERVICE"));

        Assert.Contains("ports.txt:2", Assert.Throws<FormatException>(() => PortTable.Parse("ports.txt", ["PG 15432 15433", "PG 1 2"])).Message);
        Assert.Contains("'70000'", Assert.Throws<FormatException>(() => PortTable.Parse("ports.txt", ["NATS 70000 14223"])).Message);
        Assert.Contains("ports.txt:1", Assert.Throws<FormatException>(() => PortTable.Parse("ports.txt", ["NATS 14222"])).Message);
    }

    [Fact]
    public void ARowsOffsetsOpenItsNoteAndItsServersTakeThosePortsToo()
    {
        var table = PortTable.Parse("ports.txt", ["NATS 14222 14223 clients", "NATS_R3 14224 14225 [+10000 +1000] routes, monitoring", "BENCH - 18081 [+5] no user port"]);
        Assert.Equal([10000, 1000], table.Offsets("NATS_R3"));
        Assert.Empty(table.Offsets("NATS"));
        Assert.Equal([14222, 14224, 15224, 24224], table.UserPorts().Order());

        foreach (var note in new[] { "[10000] x", "[+10000,+1000] x", "[] x", "[+10000 x", "[+70000] x" })
        {
            Assert.Contains("ports.txt:1", Assert.Throws<FormatException>(() => PortTable.Parse("ports.txt", [$"NATS_R3 14224 14225 {note}"])).Message);
        }
    }

    private static IHost Host(Dictionary<string, string?> settings)
    {
        var builder = Microsoft.Extensions.Hosting.Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(settings);
        builder.AddStorage();
        return builder.Build();
    }

    private static T Options<T>(IHost host) where T : class => host.Services.GetRequiredService<IOptions<T>>().Value;
}
