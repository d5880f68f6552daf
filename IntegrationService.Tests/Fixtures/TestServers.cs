using Microsoft.AspNetCore.Builder;
using Npgsql;

namespace IntegrationService.Tests.Fixtures;

/// <summary>
/// The server instances the tests use: their own, under .data/test on their own ports
/// (<c>script/services --test up</c>; script/test starts them), never the user's servers that a
/// plain <c>script/services up</c> starts on the default ports with the user's seeded data.
/// Read from TEST_* environment variables (script/lib.sh exports them) with the defaults of the
/// port table infra/config/ports.txt (its test column), which script/lib.sh reads too. A test port
/// that is one of the user's ports (the table's user column) fails every test that uses it.
/// </summary>
public static class TestServers
{
    /// <summary>infra/config/ports.txt of the checkout the tests run from.</summary>
    public static PortTable Table { get; } = PortTable.Find(RepositoryRoot.Path)
        ?? throw new InvalidOperationException($"{PortTable.RelativePath} not found in {RepositoryRoot.Path}");

    /// <summary>The servers of script/services, by their row in the table (script/services passes NAME_PORT and TEST_NAME_PORT of each).</summary>
    public static IReadOnlyList<string> ServerRows { get; } =
        ["PG", "TARANTOOL", "REDIS_CACHE", "REDIS_PERSISTENT", "REDIS_AOF", "REDIS_RDB", "BEANSTALKD", "REDIS_CLUSTER", "REDIS_SENTINEL", "REDIS_CLUSTER_R2", "RABBITMQ", "RABBITMQ_DIST", "RABBITMQ_R3", "NATS", "NATS_R3",
            "POSTGRES_PATRONI", "POSTGRES_PATRONI_SYNC"];

    /// <summary>The user's ports (the table's user column): the tests must never talk to these.</summary>
    public static IReadOnlyList<int> DefaultPorts { get; } = Table.UserPorts().ToArray();

    public static int PostgresPort => Port("PG");
    public static int TarantoolPort => Port("TARANTOOL");
    public static int RedisCachePort => Port("REDIS_CACHE");
    public static int RedisPersistentPort => Port("REDIS_PERSISTENT");
    public static int RedisAofPort => Port("REDIS_AOF");
    public static int RedisRdbPort => Port("REDIS_RDB");
    public static int BeanstalkdPort => Port("BEANSTALKD");

    /// <summary>RabbitMQ's AMQP port (its Erlang distribution port is <see cref="RabbitMqDistributionPort"/>).</summary>
    public static int RabbitMqPort => Port("RABBITMQ");

    /// <summary>The test node's Erlang distribution port.</summary>
    public static int RabbitMqDistributionPort => Port("RABBITMQ_DIST");

    /// <summary>rabbitmq-r3's AMQP port on each of its nodes (node i's Erlang distribution on 127.0.0.1 at this port + 10000 + i - 1).</summary>
    public static int RabbitMqR3Port => Port("RABBITMQ_R3");

    public static int NatsPort => Port("NATS");

    /// <summary>nats-r3's client port on each of its nodes (routes on this port + 10000, monitoring on + 1000).</summary>
    public static int NatsR3Port => Port("NATS_R3");

    /// <summary>A Patroni topology's PostgreSQL port on each of its nodes (Patroni's REST API on this port + 1000).</summary>
    public static int PatroniPort(bool synchronous) => Port(synchronous ? "POSTGRES_PATRONI_SYNC" : "POSTGRES_PATRONI");

    /// <summary>The first of the Redis Cluster's three masters (the next two ports are the others').</summary>
    public static int RedisClusterPort => Port("REDIS_CLUSTER");

    public static IReadOnlyList<int> RedisClusterPorts => [RedisClusterPort, RedisClusterPort + 1, RedisClusterPort + 2];

    /// <summary>redis-sentinel's data nodes' port (its Sentinels listen on this port + 10000).</summary>
    public static int RedisSentinelPort => Port("REDIS_SENTINEL");

    /// <summary>redis-cluster-r2's port on each of its six nodes (cluster bus on this port + 10000).</summary>
    public static int RedisClusterR2Port => Port("REDIS_CLUSTER_R2");

    public static string DataDirectory
    {
        get
        {
            var dir = Environment.GetEnvironmentVariable("TEST_DATA_DIR") is { Length: > 0 } value
                ? System.IO.Path.GetFullPath(value)
                : System.IO.Path.Combine(RepositoryRoot.Path, ".data", "test");
            if (dir.TrimEnd('/') == System.IO.Path.Combine(RepositoryRoot.Path, ".data"))
            {
                throw new InvalidOperationException($"TEST_DATA_DIR {dir} is the user's data directory; the tests keep to their own.");
            }
            return dir;
        }
    }

    /// <summary>
    /// The environment for script/services, so that it stops and starts the test instances
    /// (and nothing else) whatever the environment of the test run says.
    /// </summary>
    public static IReadOnlyDictionary<string, string> ScriptEnvironment
    {
        get
        {
            var environment = new Dictionary<string, string>
            {
                ["DATA_DIR"] = DataDirectory,
                ["TEST_DATA_DIR"] = DataDirectory,
                ["TEST_INSTANCES"] = "1",
            };
            foreach (var row in ServerRows)
            {
                environment[$"{row}_PORT"] = environment[$"TEST_{row}_PORT"] = Port(row).ToString();
            }
            return environment;
        }
    }

    /// <summary>
    /// Command-line configuration for the service under test: the connection settings it would
    /// otherwise read (appsettings.json, Section__Key variables) with host and port replaced by
    /// the test instances'. The command line wins over every other configuration source.
    /// </summary>
    public static string[] ServiceArguments()
    {
        var configured = WebApplication.CreateBuilder().Configuration;
        configured.AddPortTableDefaults(Table);
        var postgres = new NpgsqlConnectionStringBuilder(configured["Postgres:ConnectionString"])
        {
            Host = "127.0.0.1",
            Port = PostgresPort,
        };
        return
        [
            $"--Postgres:ConnectionString={postgres.ConnectionString}",
            "--Tarantool:Host=127.0.0.1",
            $"--Tarantool:Port={TarantoolPort}",
            $"--Redis:Cache={RedisEndpoint(configured["Redis:Cache"], RedisCachePort)}",
            $"--Redis:Persistent={RedisEndpoint(configured["Redis:Persistent"], RedisPersistentPort)}",
            $"--Redis:Aof={RedisEndpoint(configured["Redis:Aof"], RedisAofPort)}",
            $"--Redis:Rdb={RedisEndpoint(configured["Redis:Rdb"], RedisRdbPort)}",
            "--Beanstalkd:Host=127.0.0.1",
            $"--Beanstalkd:Port={BeanstalkdPort}",
            "--Redis:Cluster=" + string.Join(',', RedisClusterPorts.Select(port => $"127.0.0.1:{port}")),
            $"--Redis:Sentinel={PortTable.SentinelEndpoint(RedisSentinelPort)}",
            $"--Redis:ClusterR2={PortTable.RedisClusterR2Endpoints(RedisClusterR2Port)}",
            "--RabbitMq:Host=127.0.0.1",
            $"--RabbitMq:Port={RabbitMqPort}",
            $"--RabbitMq:R3Endpoints={PortTable.RabbitMqR3Endpoints(RabbitMqR3Port)}",
            $"--Nats:Url=nats://127.0.0.1:{NatsPort}",
            $"--Nats:R3Url={PortTable.NatsR3Url(NatsR3Port)}",
            $"--Postgres:Patroni={PortTable.PatroniConnectionString(false, PatroniPort(false))}",
            $"--Postgres:PatroniSync={PortTable.PatroniConnectionString(true, PatroniPort(true))}",
        ];
    }

    /// <summary>"host:port[,options]" with the endpoint replaced and the options kept.</summary>
    private static string RedisEndpoint(string? configured, int port)
    {
        var comma = configured?.IndexOf(',') ?? -1;
        return $"127.0.0.1:{port}" + (comma >= 0 ? configured![comma..] : "");
    }

    /// <summary>TEST_NAME_PORT from the environment, else the table's test port of the row NAME.</summary>
    private static int Port(string row)
    {
        var variable = $"TEST_{row}_PORT";
        var port = int.TryParse(Environment.GetEnvironmentVariable(variable), out var value) ? value : Table.Test(row);
        if (DefaultPorts.Contains(port))
        {
            throw new InvalidOperationException(
                $"{variable}={port} is a port of the user's servers (script/services up); the tests use their own instances (script/services --test up).");
        }
        return port;
    }
}
