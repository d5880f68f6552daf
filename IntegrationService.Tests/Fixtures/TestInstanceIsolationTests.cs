using IntegrationService.Storage.Beanstalkd;
using IntegrationService.Storage.Nats;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.RabbitMq;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using IntegrationService.Tests.Tarantool;
using Microsoft.Extensions.Options;
using Npgsql;
using System.Text.Json;

namespace IntegrationService.Tests.Fixtures;

/// <summary>
/// The tests never touch the user's servers: the service under test, the Tarantool client tests
/// and the outage tests' script/services calls all point at the tests' own instances, and the
/// servers answering there are the ones whose data lives under the test data directory.
/// </summary>
public sealed class TestInstanceIsolationTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    [Fact]
    public void TheServiceUnderTestIsConfiguredForTheTestPortsOnly()
    {
        var postgres = new NpgsqlConnectionStringBuilder(Options<PostgresOptions>().ConnectionString);
        var redis = Options<RedisOptions>();
        var tarantool = Options<TarantoolOptions>();

        AssertTestPort(TestServers.PostgresPort, postgres.Port);
        Assert.Equal("127.0.0.1", postgres.Host);
        AssertTestPort(TestServers.TarantoolPort, tarantool.Port);
        AssertTestPort(TestServers.RedisCachePort, EndpointPort(redis.Cache));
        AssertTestPort(TestServers.RedisPersistentPort, EndpointPort(redis.Persistent));
        AssertTestPort(TestServers.RedisAofPort, EndpointPort(redis.Aof));
        AssertTestPort(TestServers.RedisRdbPort, EndpointPort(redis.Rdb));
        AssertTestPort(TestServers.BeanstalkdPort, Options<BeanstalkdOptions>().Port);
        AssertTestPort(TestServers.RabbitMqPort, Options<RabbitMqOptions>().Port);
        Assert.Equal($"nats://127.0.0.1:{TestServers.NatsPort}", Options<NatsOptions>().Url);
        Assert.DoesNotContain(TestServers.NatsPort, TestServers.DefaultPorts);
        Assert.Equal(TestServers.RedisClusterPorts, redis.Cluster.Split(',').Select(EndpointPort));
        // The Sentinels of redis-sentinel, on the test port + 10000 of each node's own address.
        Assert.Equal(PortTable.SentinelEndpoint(TestServers.RedisSentinelPort), redis.Sentinel);
        Assert.DoesNotContain(TestServers.RedisSentinelPort, TestServers.DefaultPorts);
        Assert.DoesNotContain(TestServers.RedisSentinelPort + 10000, TestServers.DefaultPorts);
        // redis-cluster-r2's six nodes, on the test port of each node's own address (cluster bus + 10000).
        Assert.Equal(PortTable.RedisClusterR2Endpoints(TestServers.RedisClusterR2Port), redis.ClusterR2);
        Assert.DoesNotContain(TestServers.RedisClusterR2Port, TestServers.DefaultPorts);
        Assert.DoesNotContain(TestServers.RedisClusterR2Port + 10000, TestServers.DefaultPorts);
        // nats-r3's three nodes, on the test port of each node's own address (routes + 10000, monitoring + 1000).
        Assert.Equal(PortTable.NatsR3Url(TestServers.NatsR3Port), Options<NatsOptions>().R3Url);
        foreach (var port in new[] { TestServers.NatsR3Port, TestServers.NatsR3Port + 10000, TestServers.NatsR3Port + 1000 })
        {
            Assert.DoesNotContain(port, TestServers.DefaultPorts);
        }
        // rabbitmq-r3's three nodes, on the test port of each node's own address (distribution on 127.0.0.1, + 10000 + i - 1).
        Assert.Equal(PortTable.RabbitMqR3Endpoints(TestServers.RabbitMqR3Port), Options<RabbitMqOptions>().R3Endpoints);
        foreach (var port in new[] { TestServers.RabbitMqR3Port, TestServers.RabbitMqR3Port + 10000, TestServers.RabbitMqR3Port + 10001, TestServers.RabbitMqR3Port + 10002 })
        {
            Assert.DoesNotContain(port, TestServers.DefaultPorts);
        }
        AssertTestPort(TestServers.TarantoolPort, TarantoolServer.CreateOptions().Port);
    }

    [Fact]
    public void ScriptServicesIsCalledWithTheTestInstancesOnly()
    {
        var environment = TestServers.ScriptEnvironment;
        foreach (var name in new[] { "PG_PORT", "TARANTOOL_PORT", "REDIS_CACHE_PORT", "REDIS_PERSISTENT_PORT", "REDIS_AOF_PORT", "REDIS_RDB_PORT", "BEANSTALKD_PORT", "REDIS_CLUSTER_PORT", "REDIS_SENTINEL_PORT", "REDIS_CLUSTER_R2_PORT", "RABBITMQ_PORT", "RABBITMQ_R3_PORT", "NATS_PORT", "NATS_R3_PORT" })
        {
            Assert.DoesNotContain(int.Parse(environment[name]), TestServers.DefaultPorts);
            Assert.Equal(environment["TEST_" + name], environment[name]);
        }
        var userData = Path.Combine(RepositoryRoot.Path, ".data");
        Assert.NotEqual(userData, environment["DATA_DIR"].TrimEnd('/'));
        Assert.StartsWith(userData + "/", environment["DATA_DIR"]);
    }

    /// <summary>Asks each server where its data lives: under the test data directory, not the user's.</summary>
    [Fact]
    public async Task TheServersBehindThosePortsKeepTheirDataUnderTheTestDataDirectory()
    {
        var data = TestServers.DataDirectory;

        await using (var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(Options<PostgresOptions>().ConnectionString) { Pooling = false }.ConnectionString))
        {
            await connection.OpenAsync();
            await using var command = new NpgsqlCommand("show data_directory", connection);
            Assert.Equal(Path.Combine(data, "postgres"), (string)(await command.ExecuteScalarAsync())!);
        }

        var redis = Options<RedisOptions>();
        foreach (var (name, endpoint) in new[] { ("redis-cache", redis.Cache), ("redis-persistent", redis.Persistent), ("redis-aof", redis.Aof), ("redis-rdb", redis.Rdb) })
        {
            var dir = await Processes.RunAsync("redis-cli", "-h", "127.0.0.1", "-p", EndpointPort(endpoint).ToString(), "config", "get", "dir");
            Assert.Equal(Path.Combine(data, name), dir.Split('\n')[1]);
        }
        foreach (var port in TestServers.RedisClusterPorts)
        {
            var dir = await Processes.RunAsync("redis-cli", "-h", "127.0.0.1", "-p", port.ToString(), "config", "get", "dir");
            Assert.Equal(Path.Combine(data, "redis-cluster", port.ToString()), dir.Split('\n')[1]);
        }

        foreach (var (node, index) in PortTable.SentinelDataNodes.Select((node, i) => (node, i + 1)))
        {
            var dir = await Processes.RunAsync("redis-cli", "-h", node, "-p", TestServers.RedisSentinelPort.ToString(), "config", "get", "dir");
            Assert.Equal(Path.Combine(data, "redis-sentinel", $"node{index}"), dir.Split('\n')[1]);
        }
        foreach (var (node, index) in PortTable.RedisClusterR2Nodes.Select((node, i) => (node, i + 1)))
        {
            var dir = await Processes.RunAsync("redis-cli", "-h", node, "-p", TestServers.RedisClusterR2Port.ToString(), "config", "get", "dir");
            Assert.Equal(Path.Combine(data, "redis-cluster-r2", $"node{index}"), dir.Split('\n')[1]);
        }

        // Beanstalkd does not report its binlog directory: its command line names it.
        var beanstalkd = (await RepositoryRoot.ServicesAsync("pid", "beanstalkd")).Trim();
        var commandLine = (await File.ReadAllTextAsync($"/proc/{beanstalkd}/cmdline")).Split('\0');
        Assert.Contains(TestServers.BeanstalkdPort.ToString(), commandLine);
        Assert.Equal(Path.Combine(data, "beanstalkd", "binlog"), commandLine[Array.IndexOf(commandLine, "-b") + 1]);

        // Nor does RabbitMQ's Erlang VM, whose HOME is the node's directory.
        var rabbitmq = (await RepositoryRoot.ServicesAsync("pid", "rabbitmq")).Trim();
        var vm = (await File.ReadAllTextAsync($"/proc/{rabbitmq}/cmdline")).Split('\0');
        Assert.Equal(Path.Combine(data, "rabbitmq"), vm[Array.IndexOf(vm, "-home") + 1]);
        // And each of rabbitmq-r3's nodes, in a directory of its own.
        var r3 = (await RepositoryRoot.ServicesAsync("pid", "rabbitmq-r3")).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.Equal(3, r3.Length);
        foreach (var (pid, index) in r3.Select((pid, i) => (pid, i + 1)))
        {
            var nodeVm = (await File.ReadAllTextAsync($"/proc/{pid}/cmdline")).Split('\0');
            Assert.Equal(Path.Combine(data, "rabbitmq-r3", $"node{index}"), nodeVm[Array.IndexOf(nodeVm, "-home") + 1]);
        }
        var nats = (await RepositoryRoot.ServicesAsync("pid", "nats")).Trim();
        var natsCommandLine = (await File.ReadAllTextAsync($"/proc/{nats}/cmdline")).Split('\0');
        Assert.Equal(Path.Combine(data, "nats"), natsCommandLine[Array.IndexOf(natsCommandLine, "-sd") + 1]);
        // nats-r3's nodes report their store on their monitoring port.
        using (var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) })
        {
            foreach (var (node, index) in PortTable.NatsR3Nodes.Select((node, i) => (node, i + 1)))
            {
                using var jsz = JsonDocument.Parse(await http.GetStringAsync($"http://{node}:{TestServers.NatsR3Port + 1000}/jsz"));
                Assert.Equal(Path.Combine(data, "nats-r3", $"node{index}", "store", "jetstream"), jsz.RootElement.GetProperty("config").GetProperty("store_dir").GetString());
            }
        }

        var tarantool = Options<TarantoolOptions>();
        var workDir = await Processes.RunAsync("tarantool", "-e",
            $"local c = require('net.box').connect('127.0.0.1:{tarantool.Port}', {{ user = '{tarantool.User}', password = '{tarantool.Password}', connect_timeout = 5 }}) " +
            "print(c:eval('return box.cfg.work_dir', nil, { timeout = 5 })) os.exit(0)");
        Assert.Equal(Path.Combine(data, "tarantool"), workDir);
    }

    private T Options<T>() where T : class => service.Services.GetRequiredService<IOptions<T>>().Value;

    private static void AssertTestPort(int expected, int actual)
    {
        Assert.Equal(expected, actual);
        Assert.DoesNotContain(actual, TestServers.DefaultPorts);
    }

    private static int EndpointPort(string endpoint) => int.Parse(endpoint.Split(',')[0].Split(':')[^1]);
}
