using System.ComponentModel.DataAnnotations;
using System.Globalization;
using RabbitMQ.Client;

namespace IntegrationService.Storage.RabbitMq;

/// <summary>Configuration section "RabbitMq".</summary>
public sealed class RabbitMqOptions : IValidatableObject
{
    [Required]
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>The AMQP port: the local server's from infra/config/ports.txt (<see cref="PortTableConfiguration"/>).</summary>
    [Range(1, 65535, ErrorMessage = "RabbitMq:Port is not set: RabbitMq__Port in the environment or --RabbitMq:Port=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public int Port { get; set; }

    /// <summary>
    /// rabbitmq-r3's nodes, each host:port, comma-separated (the local three from infra/config/ports.txt); empty: the
    /// deployment has no rabbitmq-r3. The same account, virtual host and queue name as on the single node.
    /// </summary>
    public string R3Endpoints { get; set; } = "";

    /// <summary>rabbitmq-r3's nodes: each entry of <see cref="R3Endpoints"/> (none when it is empty).</summary>
    public IReadOnlyList<AmqpTcpEndpoint> R3Nodes() =>
        [.. Entries(R3Endpoints).Select(entry => TryParse(entry, out var host, out var port) ? new AmqpTcpEndpoint(host, port)
            : throw new FormatException($"RabbitMq:R3Endpoints: '{entry}' is not host:port"))];

    /// <summary>The fewest nodes of rabbitmq-r3: a quorum queue on two cannot lose either and keep a majority.</summary>
    public const int MinR3Nodes = 3;

    /// <summary>RabbitMq:R3Endpoints, checked at start: empty, or at least <see cref="MinR3Nodes"/> entries, each host:port.</summary>
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (string.IsNullOrEmpty(R3Endpoints)) yield break;
        var entries = Entries(R3Endpoints);
        foreach (var entry in entries)
        {
            if (!TryParse(entry, out _, out _))
                yield return new ValidationResult($"RabbitMq:R3Endpoints: '{entry}' is not host:port (the nodes, comma-separated)", [nameof(R3Endpoints)]);
        }
        if (entries.Length < MinR3Nodes)
            yield return new ValidationResult($"RabbitMq:R3Endpoints: {entries.Length} node(s) given, at least {MinR3Nodes} needed (a quorum queue on fewer survives no node's loss)", [nameof(R3Endpoints)]);
    }

    private static string[] Entries(string list) => list.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);

    private static bool TryParse(string entry, out string host, out int port)
    {
        var colon = entry.LastIndexOf(':');
        host = colon > 0 ? entry[..colon] : "";
        port = 0;
        return colon > 0 && int.TryParse(entry[(colon + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out port) && port is >= 1 and <= 65535;
    }

    [Required]
    public string User { get; set; } = "integration";

    [Required]
    public string Password { get; set; } = "integration";

    [Required]
    public string VirtualHost { get; set; } = "/";

    /// <summary>The quorum queue the messages live in (declared by the service if it is missing).</summary>
    [Required]
    public string Queue { get; set; } = "integration";

    /// <summary>
    /// Milliseconds one call (a publish and its confirm, a take's gets and its ack, a connection attempt)
    /// may take before it counts as unavailable (503).
    /// </summary>
    [Range(10, 60_000)]
    public int TimeoutMs { get; set; } = 2000;

    /// <summary>
    /// How many takes of <c>GET /read</c> may run at once, each on a channel of its own; reads that
    /// arrive while that many run are served together by the next (<see cref="Queues.QueueTakeBatcher{T}"/>:
    /// up to <see cref="RabbitMqQueueStore.MaxBatch"/> gets with auto-ack, one after another). A take's
    /// gets wait for one another (each a round trip to the broker), so the takes at once bound the
    /// rate <c>GET /read</c> can reach (docs/BENCHMARKS.md).
    /// </summary>
    [Range(1, 64)]
    public int QueueTakesInFlight { get; set; } = 16;

    /// <summary>
    /// The most channels the connection asks the broker for (the broker's own limit, 2047 by default,
    /// wins if lower). Tests lower it to run out quickly.
    /// </summary>
    [Range(1, 65535)]
    public int ChannelMax { get; set; } = 2047;

    /// <summary>Open channels kept for reuse; more are opened under load and closed when returned.</summary>
    [Range(1, 1024)]
    public int MaxIdleChannels { get; set; } = 64;
}
