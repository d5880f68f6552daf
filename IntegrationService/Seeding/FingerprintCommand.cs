using IntegrationService.Http;
using System.CommandLine;
using IntegrationService.Storage;
using IntegrationService.Storage.Beanstalkd;
using IntegrationService.Storage.Nats;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.RabbitMq;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using Microsoft.Extensions.Options;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService fingerprint [--deadline 120] [--Section:Key=value …]</c>: one line per
/// server that holds data of its own (every backend an architecture cannot do without; caches are
/// left out: their keys expire and are evicted by design), saying what it holds — rows or keys,
/// the highest id, an MD5 of a sample — or "not running". Reads only, through the service's own
/// clients, with the service's settings (appsettings.json, Section__Key variables, and
/// <c>--Section:Key=value</c> arguments, which win). script/test prints the user's servers'
/// fingerprint before and after a test run and fails when they differ.
/// </summary>
public sealed class FingerprintCommand : Command
{
    private readonly Option<int> _deadline = CommandLineOptions.WholeNumber("--deadline", "Seconds for all the servers together; a server not read by then prints an error", 1, 3600, defaultValue: 120);

    public FingerprintCommand() : base("fingerprint", "Prints a line per persistent server (counts, highest id, an MD5 of a sample) or 'not running'; reads only. --Section:Key=value arguments set the connection settings as for the service")
    {
        Add(_deadline);
        // The service's own configuration arguments (--Postgres:ConnectionString=…) pass through.
        TreatUnmatchedTokensAsErrors = false;
        SetAction((parse, cancellationToken) => RunAsync(parse, cancellationToken));
    }

    /// <summary>The configuration arguments among the unmatched tokens; anything else is a usage error.</summary>
    public static string[] SettingsArguments(IReadOnlyList<string> unmatched) =>
        unmatched.All(t => t.StartsWith("--", StringComparison.Ordinal) && t.Contains(':') && t.Contains('='))
            ? [.. unmatched]
            : throw new ArgumentException($"unknown arguments: {string.Join(' ', unmatched.Where(t => !(t.StartsWith("--", StringComparison.Ordinal) && t.Contains(':') && t.Contains('='))))} (settings are --Section:Key=value)");

    private async Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        var output = parse.InvocationConfiguration.Output;
        string[] settings;
        try
        {
            settings = SettingsArguments(parse.UnmatchedTokens);
        }
        catch (ArgumentException e)
        {
            await parse.InvocationConfiguration.Error.WriteLineAsync($"fingerprint: error: {e.Message}");
            return ServiceCli.UsageError;
        }
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { ContentRootPath = AppContext.BaseDirectory, Args = settings });
        builder.Logging.ClearProviders(); // stdout is the fingerprint: failures are in its lines
        builder.AddStorage();
        // Built, never started: no schema is created and no connection is kept up; each reader connects itself.
        using var host = builder.Build();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(parse.GetRequiredValue(_deadline)));
        foreach (var server in PersistentServers(host.Services.GetRequiredService<StorageRegistry>()))
        {
            ServerFingerprint line;
            try
            {
                line = await ReadAsync(host.Services, server.Name, server.Serves, deadline.Token).WaitAsync(deadline.Token);
            }
            catch (Exception e) when (e is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
            {
                line = ServerFingerprint.Failed(server.Name, "", e is OperationCanceledException ? "not read before the deadline" : e.Message.ReplaceLineEndings(" "));
            }
            await output.WriteLineAsync(line.ToString());
        }
        return 0;
    }

    /// <summary>Every backend some architecture cannot serve without, with what the architectures on it serve.</summary>
    public static IReadOnlyList<(string Name, IReadOnlySet<string> Serves)> PersistentServers(StorageRegistry registry) =>
        registry.All.SelectMany(a => a.Backends).Distinct().Order(StringComparer.Ordinal)
            .Select(name => (name, (IReadOnlySet<string>)registry.All.Where(a => a.Backends.Contains(name)).SelectMany(Serves).ToHashSet()))
            .ToArray();

    /// <summary>Whether <paramref name="server"/> has a fingerprint reader (a test checks every registered one has).</summary>
    public static bool CanRead(IServiceProvider services, string server) =>
        server is PostgresServiceCollectionExtensions.BackendName or TarantoolHealthCheck.BackendName or BeanstalkdQueueStore.BackendName
            or RabbitMqConnection.BackendName or RabbitMqConnection.R3BackendName or NatsJetStreamQueue.BackendName or NatsJetStreamQueue.R3BackendName
            or PostgresServiceCollectionExtensions.PatroniName or PostgresServiceCollectionExtensions.PatroniSyncName
        || services.GetRequiredService<RedisConnections>().All.Any(c => c.Name == server);

    private static Task<ServerFingerprint> ReadAsync(IServiceProvider services, string server, IReadOnlySet<string> serves, CancellationToken cancellationToken) => server switch
    {
        PostgresServiceCollectionExtensions.BackendName => PostgresFingerprint.ReadAsync(server, services.GetRequiredService<PostgresDatabase>(), cancellationToken),
        // A Patroni topology's primary, as the service finds it.
        PostgresServiceCollectionExtensions.PatroniName or PostgresServiceCollectionExtensions.PatroniSyncName =>
            PostgresFingerprint.ReadAsync(server, services.GetRequiredKeyedService<PostgresDatabase>(server), cancellationToken),
        TarantoolHealthCheck.BackendName => TarantoolFingerprint.ReadAsync(server, services.GetRequiredService<TarantoolConnection>(),
            services.GetRequiredService<IOptions<TarantoolOptions>>(), cancellationToken),
        BeanstalkdQueueStore.BackendName => BeanstalkdFingerprint.ReadAsync(server, services.GetRequiredService<IOptions<BeanstalkdOptions>>(), cancellationToken),
        RabbitMqConnection.BackendName when services.GetRequiredService<IOptions<RabbitMqOptions>>().Value is var rabbit =>
            QueueBrokerFingerprint.ReadAsync(server, rabbit.Host, rabbit.Port, services.GetRequiredService<StorageRegistry>(), cancellationToken),
        // As nats-r3's: the first node stands for the cluster.
        RabbitMqConnection.R3BackendName when services.GetRequiredService<IOptions<RabbitMqOptions>>().Value.R3Nodes()[0] is var node =>
            QueueBrokerFingerprint.ReadAsync(server, node.HostName, node.Port, services.GetRequiredService<StorageRegistry>(), cancellationToken),
        NatsJetStreamQueue.BackendName when new Uri(services.GetRequiredService<IOptions<NatsOptions>>().Value.Url) is var nats =>
            QueueBrokerFingerprint.ReadAsync(server, nats.Host, nats.Port, services.GetRequiredService<StorageRegistry>(), cancellationToken),
        // The cluster's first node stands for it (the depth read is the stream's, through whichever node the client is on).
        NatsJetStreamQueue.R3BackendName when services.GetRequiredService<IOptions<NatsOptions>>().Value.R3Nodes()[0] is var node =>
            QueueBrokerFingerprint.ReadAsync(server, node.Host, node.Port, services.GetRequiredService<StorageRegistry>(), cancellationToken),
        _ when services.GetRequiredService<RedisConnections>().All.FirstOrDefault(c => c.Name == server) is { } redis => RedisFingerprint.ReadAsync(redis, serves, cancellationToken),
        _ => Task.FromResult(ServerFingerprint.Failed(server, "", "no fingerprint reader for this server")),
    };

    private static IEnumerable<string> Serves(StorageArchitecture architecture) =>
    [
        .. architecture.Authors is null ? Array.Empty<string>() : [StorageApi.Author],
        .. architecture.Items is null ? Array.Empty<string>() : [StorageApi.Item],
        .. architecture.Queue is null ? Array.Empty<string>() : [StorageApi.Queue],
        .. architecture.Kv is null ? Array.Empty<string>() : [StorageApi.KeyValue],
    ];
}
