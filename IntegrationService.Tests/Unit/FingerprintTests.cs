using System.Net;
using System.Net.Sockets;
using IntegrationService.Seeding;
using IntegrationService.Storage;
using IntegrationService.Storage.Postgres;
using IntegrationService.Tests.Fixtures;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// <c>IntegrationService fingerprint</c>: its lines, the servers it reads (from the registered
/// architectures), and runs against the tests' own servers, which it only reads.
/// </summary>
public sealed class FingerprintTests
{
    private static (int Code, string[] Lines, string Error) Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var code = ServiceCli.RunAsync(["fingerprint", .. args], output, error).GetAwaiter().GetResult();
        return (code, output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries), error.ToString());
    }

    [Fact]
    public void ALineIsTheServerItsEndpointAndItsFieldsInOrder()
    {
        Assert.Equal("postgres 127.0.0.1:15432: authors=1000 max_author=1203 sample=9af1 last-id=none",
            ServerFingerprint.Of("postgres", "127.0.0.1:15432", [new("authors", 1000L), new("max_author", 1203L), new("sample", "9af1"), new("last-id", null)]).ToString());
        Assert.Equal("tarantool 127.0.0.1:13301: not running", ServerFingerprint.Down("tarantool", "127.0.0.1:13301").ToString());
        Assert.Equal("beanstalkd: error: not read before the deadline", ServerFingerprint.Failed("beanstalkd", "", "not read before the deadline").ToString());
    }

    [Fact]
    public void ARedisPasswordStaysOutOfTheLine() =>
        Assert.Equal("127.0.0.1:17001,127.0.0.1:17002", PortProbe.Display("127.0.0.1:17001, 127.0.0.1:17002,password=secret,abortConnect=false"));

    [Fact]
    public void BeanstalkdsStatsAreRead()
    {
        const string reply = "OK 120\r\n---\ncurrent-jobs-urgent: 0\ncurrent-jobs-ready: 6\ncurrent-jobs-reserved: 0\ncmd-put: 27818\ntotal-jobs: 27816\nuptime: 5\n\r\n";
        var stats = BeanstalkdFingerprint.Parse(reply);

        Assert.Equal(("6", "27816"), (stats["current-jobs-ready"], stats["total-jobs"]));
        Assert.Throws<InvalidOperationException>(() => BeanstalkdFingerprint.Parse("UNKNOWN_COMMAND\r\n"));
    }

    [Fact]
    public void TheServersAreTheRegisteredBackendsWithoutTheCache()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { ContentRootPath = AppContext.BaseDirectory });
        builder.AddStorage();
        using var host = builder.Build();
        var servers = FingerprintCommand.PersistentServers(host.Services.GetRequiredService<StorageRegistry>());

        Assert.Equal(["beanstalkd", "nats", "nats-r3", "postgres", "postgres-patroni", "postgres-patroni-sync", "rabbitmq", "rabbitmq-r3", "redis-aof", "redis-cluster",
            "redis-cluster-r2", "redis-persistent", "redis-rdb", "redis-sentinel", "tarantool"], servers.Select(s => s.Name));
        // Every server an architecture needs has a reader: a new one fails here, not silently in script/test.
        Assert.All(servers, s => Assert.True(FingerprintCommand.CanRead(host.Services, s.Name), s.Name));
        Assert.Equal(["Item", "KeyValue"], servers.Single(s => s.Name == "redis-persistent").Serves.Order());
        Assert.Equal(["Queue"], servers.Single(s => s.Name == "redis-aof").Serves);
    }

    [Fact]
    public void OnlySettingsPassThrough()
    {
        Assert.Equal(["--Tarantool:Port=1"], FingerprintCommand.SettingsArguments(["--Tarantool:Port=1"]));
        var (code, lines, error) = Run("--Tarantool:Port=1", "--verbose");

        Assert.Equal(ServiceCli.UsageError, code);
        Assert.Empty(lines);
        Assert.Contains("fingerprint: error: unknown arguments: --verbose", error);
    }

    [Fact]
    public async Task EveryTestServerIsReadAndAStoppedOneIsNotRunning()
    {
        // The service applies the schema when it starts; whether another test has started it on
        // these servers yet depends on the order the tests run in, so apply it here.
        foreach (var connectionString in PostgresTestDatabases()) await ApplySchemaAsync(connectionString);
        var closed = ClosedPort();
        var (code, lines, error) = Run([.. TestServers.ServiceArguments(), $"--Beanstalkd:Port={closed}"]);

        Assert.Equal((0, ""), (code, error));
        Assert.Equal(15, lines.Length);
        Assert.Equal($"beanstalkd 127.0.0.1:{closed}: not running", lines[0]);
        Assert.Matches(@"^nats 127\.0\.0\.1:\d+: messages=\d+$", lines[1]);
        Assert.Matches(@"^nats-r3 127\.0\.0\.41:\d+: messages=\d+$", lines[2]);
        Assert.StartsWith($"postgres 127.0.0.1:{TestServers.PostgresPort}: authors=", lines[3]);
        Assert.StartsWith($"postgres-patroni 127.0.0.51,127.0.0.52,127.0.0.53:{TestServers.PatroniPort(false)}: authors=", lines[4]);
        Assert.StartsWith($"postgres-patroni-sync 127.0.0.61,127.0.0.62,127.0.0.63:{TestServers.PatroniPort(true)}: authors=", lines[5]);
        Assert.Matches(@"^rabbitmq 127\.0\.0\.1:\d+: messages=\d+$", lines[6]);
        Assert.Matches(@"^rabbitmq-r3 127\.0\.0\.71:\d+: messages=\d+$", lines[7]);
        Assert.Matches(@"^redis-aof 127\.0\.0\.1:\d+: keys=\d+ messages=\d+ last-id=", lines[8]);
        Assert.Matches(@"^redis-cluster-r2 (127\.0\.0\.3[1-5]:\d+,){5}127\.0\.0\.36:\d+: keys=\d+$", lines[10]);
        Assert.Matches(@"^redis-persistent 127\.0\.0\.1:\d+: keys=\d+ sample=[0-9a-f]{32}$", lines[11]);
        Assert.Matches(@"^redis-sentinel 127\.0\.0\.21:\d+,127\.0\.0\.22:\d+,127\.0\.0\.23:\d+: keys=\d+ ", lines[13]);
        Assert.Matches(@"^tarantool 127\.0\.0\.1:\d+: memtx\.authors=\d+ .* vinyl\.sample=[0-9a-f]{32}$", lines[14]);
        Assert.DoesNotContain(lines, l => l.Contains("error:", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ADatabaseTheServiceHasNeverStartedOnReadsAsNoSchema()
    {
        // Unpooled: a pooled connection opened before an outage test restarted PostgreSQL fails its first command (57P01).
        var main = new NpgsqlConnectionStringBuilder(PostgresTestDatabases()[0]) { Pooling = false };
        var empty = new NpgsqlConnectionStringBuilder(main.ConnectionString) { Database = $"fingerprint_{Guid.NewGuid():N}", Pooling = false };
        await using (var connection = new NpgsqlConnection(main.ConnectionString))
        {
            await connection.OpenAsync();
            await using var create = new NpgsqlCommand($"create database {empty.Database}", connection);
            await create.ExecuteNonQueryAsync();
        }
        try
        {
            var (code, lines, error) = Run([.. TestServers.ServiceArguments(), $"--Postgres:ConnectionString={empty.ConnectionString}"]);

            Assert.Equal((0, ""), (code, error));
            Assert.Equal($"postgres 127.0.0.1:{TestServers.PostgresPort}: schema=none", lines[3]);
        }
        finally
        {
            NpgsqlConnection.ClearAllPools();
            await using var connection = new NpgsqlConnection(main.ConnectionString);
            await connection.OpenAsync();
            await using var drop = new NpgsqlCommand($"drop database if exists {empty.Database} with (force)", connection);
            await drop.ExecuteNonQueryAsync();
        }
    }

    /// <summary>The connection strings of the tests' PostgreSQL databases: the main one, postgres-patroni's, postgres-patroni-sync's.</summary>
    private static string[] PostgresTestDatabases() =>
        TestServers.ServiceArguments()
            .Where(a => a.StartsWith("--Postgres:ConnectionString=", StringComparison.Ordinal) || a.StartsWith("--Postgres:Patroni", StringComparison.Ordinal))
            .Select(a => a[(a.IndexOf('=') + 1)..])
            .ToArray();

    /// <summary>The service's own schema, applied as it applies it at start-up.</summary>
    private static async Task ApplySchemaAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync();
        await PostgresSchemaInitializer.ApplyAsync(connection, CancellationToken.None);
    }

    private static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port; // closed again when the listener is disposed
    }
}
