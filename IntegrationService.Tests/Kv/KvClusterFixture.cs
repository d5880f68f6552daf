using System.Net;
using System.Net.Sockets;
using IntegrationService.Tests.Fixtures;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IntegrationService.Tests.Kv;

/// <summary>
/// A sharded key-value cluster of three real service hosts on free loopback ports, each with its
/// own store: its own database (kv_cluster_node0..2) on the tests' PostgreSQL. Nodes can be stopped
/// and started again on the same port.
/// </summary>
public sealed class KvClusterFixture : IAsyncLifetime
{
    public const int Size = 3;

    private readonly WebApplication?[] _nodes = new WebApplication?[Size];

    public string[] Urls { get; } = new string[Size];

    public HttpClient[] Clients { get; } = new HttpClient[Size];

    public static string Database(int node) => $"kv_cluster_node{node}";

    public static string ConnectionString(string database) =>
        new NpgsqlConnectionStringBuilder { Host = "127.0.0.1", Port = TestServers.PostgresPort, Username = "integration", Database = database }.ConnectionString;

    /// <summary>
    /// The fixture's own queries open a fresh connection each time: a pooled one may be a
    /// connection an outage test's PostgreSQL restart already closed (57P01 on first use).
    /// </summary>
    private static string CheckConnectionString(string database) =>
        new NpgsqlConnectionStringBuilder(ConnectionString(database)) { Pooling = false }.ConnectionString;

    public async Task InitializeAsync()
    {
        await using (var admin = new NpgsqlConnection(CheckConnectionString("integration")))
        {
            await admin.OpenAsync();
            for (var i = 0; i < Size; i++)
            {
                await using var exists = new NpgsqlCommand($"select count(*) from pg_database where datname = '{Database(i)}'", admin);
                if ((long)(await exists.ExecuteScalarAsync())! == 0)
                {
                    await using var create = new NpgsqlCommand($"create database {Database(i)}", admin);
                    await create.ExecuteNonQueryAsync();
                }
            }
        }
        for (var i = 0; i < Size; i++) Urls[i] = $"http://127.0.0.1:{FreePort()}";
        for (var i = 0; i < Size; i++)
        {
            Clients[i] = new HttpClient { BaseAddress = new Uri(Urls[i]), Timeout = TimeSpan.FromSeconds(30) };
            await StartAsync(i);
        }
    }

    public async Task StartAsync(int node)
    {
        string[] args =
        [
            "--urls", Urls[node], "--Logging:LogLevel:Default=Warning",
            .. TestServers.ServiceArguments().Where(a => !a.StartsWith("--Postgres:ConnectionString=", StringComparison.Ordinal)),
            $"--Postgres:ConnectionString={ConnectionString(Database(node))}",
            "--Postgres:WarmConnections=1",
            "--Kv:Default=postgres",
            $"--Cluster:Nodes={string.Join(',', Urls)}",
            $"--Cluster:Self={Urls[node]}",
            "--Cluster:ProxyTimeoutMs=2000",
        ];
        var app = ServiceHost.Build(args);
        await app.StartAsync();
        _nodes[node] = app;
    }

    /// <summary>How long the running <paramref name="node"/>'s host waits for what is still running when it stops.</summary>
    public TimeSpan ShutdownTimeout(int node) => _nodes[node]!.Services.GetRequiredService<IOptions<HostOptions>>().Value.ShutdownTimeout;

    public async Task StopAsync(int node)
    {
        if (_nodes[node] is { } app)
        {
            _nodes[node] = null;
            await app.StopAsync();
            await app.DisposeAsync();
        }
    }

    /// <summary>How many rows of each node's own kv table hold <paramref name="key"/>.</summary>
    public async Task<int[]> CopiesAsync(string key)
    {
        var copies = new int[Size];
        for (var i = 0; i < Size; i++)
        {
            await using var connection = new NpgsqlConnection(CheckConnectionString(Database(i)));
            await connection.OpenAsync();
            await using var command = new NpgsqlCommand("select count(*) from kv where key = $1", connection) { Parameters = { new() { Value = key } } };
            copies[i] = (int)(long)(await command.ExecuteScalarAsync())!;
        }
        return copies;
    }

    public async Task DisposeAsync()
    {
        foreach (var client in Clients) client?.Dispose();
        for (var i = 0; i < Size; i++) await StopAsync(i);
    }

    internal static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
