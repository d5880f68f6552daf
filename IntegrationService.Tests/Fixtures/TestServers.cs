using Microsoft.AspNetCore.Builder;
using Npgsql;

namespace IntegrationService.Tests.Fixtures;

/// <summary>
/// The server instances the tests use: their own, under .data/test on their own ports
/// (<c>script/services --test up</c>; script/test starts them), never the user's servers that a
/// plain <c>script/services up</c> starts on the default ports with the user's seeded data.
/// Read from TEST_* environment variables (script/lib.sh exports them) with the same defaults
/// as script/lib.sh. A test port that is a default port fails every test that uses it.
/// </summary>
public static class TestServers
{
    /// <summary>The user's servers (script/lib.sh): the tests must never talk to these.</summary>
    public static IReadOnlyList<int> DefaultPorts { get; } = [15432, 13301, 16379, 16380, 16381, 16382, 11300, 17001, 17002, 17003, 15673, 14222];

    public static int PostgresPort => Port("TEST_PG_PORT", 15433);
    public static int TarantoolPort => Port("TEST_TARANTOOL_PORT", 13302);
    public static int RedisCachePort => Port("TEST_REDIS_CACHE_PORT", 16391);
    public static int RedisPersistentPort => Port("TEST_REDIS_PERSISTENT_PORT", 16392);
    public static int RedisAofPort => Port("TEST_REDIS_AOF_PORT", 16393);
    public static int RedisRdbPort => Port("TEST_REDIS_RDB_PORT", 16394);
    public static int BeanstalkdPort => Port("TEST_BEANSTALKD_PORT", 11301);

    /// <summary>RabbitMQ's AMQP port (its Erlang distribution port is this + 20000).</summary>
    public static int RabbitMqPort => Port("TEST_RABBITMQ_PORT", 15674);

    public static int NatsPort => Port("TEST_NATS_PORT", 14223);

    /// <summary>The first of the Redis Cluster's three masters (the next two ports are the others').</summary>
    public static int RedisClusterPort => Port("TEST_REDIS_CLUSTER_PORT", 17011);

    public static IReadOnlyList<int> RedisClusterPorts => [RedisClusterPort, RedisClusterPort + 1, RedisClusterPort + 2];

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
    public static IReadOnlyDictionary<string, string> ScriptEnvironment => new Dictionary<string, string>
    {
        ["PG_PORT"] = PostgresPort.ToString(),
        ["TARANTOOL_PORT"] = TarantoolPort.ToString(),
        ["REDIS_CACHE_PORT"] = RedisCachePort.ToString(),
        ["REDIS_PERSISTENT_PORT"] = RedisPersistentPort.ToString(),
        ["REDIS_AOF_PORT"] = RedisAofPort.ToString(),
        ["REDIS_RDB_PORT"] = RedisRdbPort.ToString(),
        ["BEANSTALKD_PORT"] = BeanstalkdPort.ToString(),
        ["REDIS_CLUSTER_PORT"] = RedisClusterPort.ToString(),
        ["RABBITMQ_PORT"] = RabbitMqPort.ToString(),
        ["NATS_PORT"] = NatsPort.ToString(),
        ["DATA_DIR"] = DataDirectory,
        ["TEST_PG_PORT"] = PostgresPort.ToString(),
        ["TEST_TARANTOOL_PORT"] = TarantoolPort.ToString(),
        ["TEST_REDIS_CACHE_PORT"] = RedisCachePort.ToString(),
        ["TEST_REDIS_PERSISTENT_PORT"] = RedisPersistentPort.ToString(),
        ["TEST_REDIS_AOF_PORT"] = RedisAofPort.ToString(),
        ["TEST_REDIS_RDB_PORT"] = RedisRdbPort.ToString(),
        ["TEST_BEANSTALKD_PORT"] = BeanstalkdPort.ToString(),
        ["TEST_REDIS_CLUSTER_PORT"] = RedisClusterPort.ToString(),
        ["TEST_RABBITMQ_PORT"] = RabbitMqPort.ToString(),
        ["TEST_NATS_PORT"] = NatsPort.ToString(),
        ["TEST_DATA_DIR"] = DataDirectory,
        ["TEST_INSTANCES"] = "1",
    };

    /// <summary>
    /// Command-line configuration for the service under test: the connection settings it would
    /// otherwise read (appsettings.json, Section__Key variables) with host and port replaced by
    /// the test instances'. The command line wins over every other configuration source.
    /// </summary>
    public static string[] ServiceArguments()
    {
        var configured = WebApplication.CreateBuilder().Configuration;
        var postgres = new NpgsqlConnectionStringBuilder(configured["Postgres:ConnectionString"]
            ?? new IntegrationService.Storage.Postgres.PostgresOptions().ConnectionString)
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
            "--RabbitMq:Host=127.0.0.1",
            $"--RabbitMq:Port={RabbitMqPort}",
            $"--Nats:Url=nats://127.0.0.1:{NatsPort}",
        ];
    }

    /// <summary>"host:port[,options]" with the endpoint replaced and the options kept.</summary>
    private static string RedisEndpoint(string? configured, int port)
    {
        var comma = configured?.IndexOf(',') ?? -1;
        return $"127.0.0.1:{port}" + (comma >= 0 ? configured![comma..] : "");
    }

    private static int Port(string variable, int fallback)
    {
        var port = int.TryParse(Environment.GetEnvironmentVariable(variable), out var value) ? value : fallback;
        if (DefaultPorts.Contains(port))
        {
            throw new InvalidOperationException(
                $"{variable}={port} is a port of the user's servers (script/services up); the tests use their own instances (script/services --test up).");
        }
        return port;
    }
}
