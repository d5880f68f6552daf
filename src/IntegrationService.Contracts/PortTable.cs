namespace IntegrationService;

/// <summary>
/// infra/config/ports.txt: every port our local servers listen on, the user's (script/services up)
/// and the tests' (script/services --test up), one row per name: <c>NAME USER TEST NOTE…</c>,
/// "-" for none, '#' comments. The one table that script/lib.sh, the test fixture and the
/// service's default endpoints (PortTableConfiguration) and the lab's cluster read.
/// </summary>
public sealed class PortTable
{
    /// <summary>Where the table lives, relative to the repository root.</summary>
    public static readonly string RelativePath = Path.Combine("infra", "config", "ports.txt");

    private readonly Dictionary<string, (int? User, int? Test, int[] Offsets)> _rows;

    private PortTable(string path, Dictionary<string, (int? User, int? Test, int[] Offsets)> rows)
    {
        FilePath = path;
        _rows = rows;
    }

    /// <summary>The file read.</summary>
    public string FilePath { get; }

    public IReadOnlyCollection<string> Names => _rows.Keys;

    /// <summary>The user's port of a row; throws when the row is missing or has none.</summary>
    public int User(string name) => Row(name).User ?? throw new InvalidOperationException($"{FilePath}: {name} has no user's port");

    /// <summary>The tests' port of a row; throws when the row is missing or has none.</summary>
    public int Test(string name) => Row(name).Test ?? throw new InvalidOperationException($"{FilePath}: {name} has no tests' port");

    /// <summary>The other ports a row's servers take, as offsets from its port (the "[+N …]" that opens its note).</summary>
    public IReadOnlyList<int> Offsets(string name) => Row(name).Offsets;

    /// <summary>Every user's port of the table, with the ports each row takes at its offsets.</summary>
    public IEnumerable<int> UserPorts() => _rows.SelectMany(row =>
        row.Value.User is not { } port ? [] : row.Value.Offsets.Select(offset => port + offset).Prepend(port));

    /// <summary>The loopback addresses of redis-sentinel's three nodes (script/services: data nodes on the first two, a Sentinel on each).</summary>
    public static IReadOnlyList<string> SentinelNodes { get; } = ["127.0.0.21", "127.0.0.22", "127.0.0.23"];

    /// <summary>Where redis-sentinel's primary and replica run: the first two of <see cref="SentinelNodes"/>.</summary>
    public static IReadOnlyList<string> SentinelDataNodes { get; } = [.. SentinelNodes.Take(2)];

    /// <summary>The name the Sentinels monitor the primary under (infra/config/sentinel.conf).</summary>
    public const string SentinelService = "integration";

    /// <summary>
    /// StackExchange.Redis's endpoint for redis-sentinel whose data nodes listen on <paramref name="dataPort"/>:
    /// the three Sentinels (its port + 10000) and the service name, from which the client finds the primary.
    /// </summary>
    public static string SentinelEndpoint(int dataPort) =>
        string.Join(',', SentinelNodes.Select(address => $"{address}:{dataPort + 10000}")) + $",serviceName={SentinelService}";

    /// <summary>The loopback addresses of redis-cluster-r2's six nodes (script/services: masters on the first three at creation, a replica of each on the others).</summary>
    public static IReadOnlyList<string> RedisClusterR2Nodes { get; } = ["127.0.0.31", "127.0.0.32", "127.0.0.33", "127.0.0.34", "127.0.0.35", "127.0.0.36"];

    /// <summary>StackExchange.Redis's seed endpoints for redis-cluster-r2 whose nodes listen on <paramref name="port"/>: every node, host:port, comma-separated.</summary>
    public static string RedisClusterR2Endpoints(int port) => string.Join(',', RedisClusterR2Nodes.Select(address => $"{address}:{port}"));

    /// <summary>The loopback addresses of nats-r3's three nodes (script/services: a nats-server on each).</summary>
    public static IReadOnlyList<string> NatsR3Nodes { get; } = ["127.0.0.41", "127.0.0.42", "127.0.0.43"];

    /// <summary>NATS.Net's URL for nats-r3 whose nodes take clients on <paramref name="port"/>: every node, comma-separated.</summary>
    public static string NatsR3Url(int port) => string.Join(',', NatsR3Nodes.Select(address => $"nats://{address}:{port}"));

    /// <summary>The loopback addresses of rabbitmq-r3's three nodes (script/services: a RabbitMQ node taking AMQP clients on each).</summary>
    public static IReadOnlyList<string> RabbitMqR3Nodes { get; } = ["127.0.0.71", "127.0.0.72", "127.0.0.73"];

    /// <summary>The RabbitMQ client's endpoint list for rabbitmq-r3 whose nodes take clients on <paramref name="port"/>: every node, host:port, comma-separated.</summary>
    public static string RabbitMqR3Endpoints(int port) => string.Join(',', RabbitMqR3Nodes.Select(address => $"{address}:{port}"));

    /// <summary>The loopback addresses of a Patroni topology's three PostgreSQL nodes (script/services): postgres-patroni's, or postgres-patroni-sync's.</summary>
    public static IReadOnlyList<string> PatroniNodes(bool synchronous) =>
        synchronous ? ["127.0.0.61", "127.0.0.62", "127.0.0.63"] : ["127.0.0.51", "127.0.0.52", "127.0.0.53"];

    /// <summary>
    /// Npgsql's connection string for a Patroni topology whose nodes listen on <paramref name="port"/>: every node, and
    /// the primary asked for (Target Session Attributes); a node found not to be it is asked again after a second.
    /// </summary>
    public static string PatroniConnectionString(bool synchronous, int port) =>
        $"Host={string.Join(',', PatroniNodes(synchronous))};Port={port};Username=integration;Database=integration;Target Session Attributes=primary;Host Recheck Seconds=1";

    private (int? User, int? Test, int[] Offsets) Row(string name) =>
        _rows.TryGetValue(name, out var row) ? row : throw new InvalidOperationException($"{FilePath} has no row {name}");

    /// <summary>The table in the first directory from <paramref name="start"/> upwards that holds it, or null.</summary>
    public static PortTable? Find(string start)
    {
        for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
        {
            var path = System.IO.Path.Combine(dir.FullName, RelativePath);
            if (File.Exists(path)) return Load(path);
        }
        return null;
    }

    /// <summary>The table of the checkout this program runs from (found above <see cref="AppContext.BaseDirectory"/>), or null (a published image).</summary>
    public static PortTable? OfThisCheckout() => Find(AppContext.BaseDirectory);

    public static PortTable Load(string path) => Parse(path, File.ReadAllLines(path));

    public static PortTable Parse(string path, IEnumerable<string> lines)
    {
        var rows = new Dictionary<string, (int? User, int? Test, int[] Offsets)>(StringComparer.Ordinal);
        var number = 0;
        foreach (var line in lines)
        {
            number++;
            var fields = line.Split((char[]?)null, 4, StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length == 0 || fields[0].StartsWith('#')) continue;
            if (fields.Length < 3 || !rows.TryAdd(fields[0], (Port(fields[1]), Port(fields[2]), Offsets(fields.Length > 3 ? fields[3] : ""))))
            {
                throw new FormatException($"{path}:{number}: expected a new NAME USER TEST [NOTE], got '{line}'");
            }

            int[] Offsets(string note)
            {
                if (!note.StartsWith('[')) return [];
                var end = note.IndexOf(']', StringComparison.Ordinal);
                var offsets = end < 0 ? null : note[1..end].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                return offsets is { Length: > 0 } && offsets.All(o => o.Length > 1 && o[0] == '+')
                    ? offsets.Select(o => Port(o[1..])!.Value).ToArray()
                    : throw new FormatException($"{path}:{number}: a note's offsets are [+N +M …], got '{note}'");
            }

            int? Port(string field) =>
                field == "-" ? null
                : int.TryParse(field, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var port) && port is > 0 and <= 65535 ? port
                : throw new FormatException($"{path}:{number}: '{field}' is not a port or -");
        }
        return new PortTable(path, rows);
    }
}
