using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// Configuration section "Cluster": the sharded key-value topology. Without <see cref="Nodes"/> the
/// service is a single node and serves every key itself.
/// </summary>
public sealed class ClusterOptions : IValidatableObject
{
    /// <summary>Every node's base URL (plain http), comma-separated (<c>http://127.0.0.1:8080,http://127.0.0.1:8081,…</c>), the same list on every node.</summary>
    public string? Nodes { get; set; }

    /// <summary>This node's base URL, exactly as it appears in <see cref="Nodes"/>.</summary>
    public string? Self { get; set; }

    /// <summary>Milliseconds a proxied request may take (connect, send, answer) before the owner counts as unavailable (503).</summary>
    [Range(10, 60_000)]
    public int ProxyTimeoutMs { get; set; } = 1000;

    /// <summary>
    /// Requests this node forwards to one other node at once. Above the benchmarks' 64 client
    /// connections, so that a node serving every one of them never waits; an owner slower than the
    /// load then has at most this many of this node's requests in hand, not hundreds.
    /// </summary>
    [Range(1, 10_000)]
    public int MaxInFlightPerNode { get; set; } = 64;

    /// <summary>
    /// Connections this node keeps to each other node. Each carries many requests at once, and the
    /// owner runs a connection's requests together and answers them in batches, so one batches the
    /// most (measured best on a 2-core machine); more spread the sending and reading over more
    /// threads, and lessen how long a slow request delays those behind it on its connection.
    /// </summary>
    [Range(1, 256)]
    public int ConnectionsPerNode { get; set; } = 1;

    /// <summary>
    /// Milliseconds a request waits for one of the <see cref="MaxInFlightPerNode"/> places when all are
    /// taken; then it is shed, 503 with Retry-After, without having been sent. 0: shed at once.
    /// </summary>
    [Range(0, 10_000)]
    public int ProxyQueueWaitMs { get; set; } = 100;

    /// <summary>Connections opened to each other node at start (at most <see cref="ConnectionsPerNode"/>), so the first requests find them.</summary>
    [Range(0, 256)]
    public int WarmConnectionsPerNode { get; set; } = 1;

    /// <summary>The node URLs, normalized (no trailing slash), in configuration order.</summary>
    public IReadOnlyList<string> NodeList =>
        (Nodes ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(Normalize).ToArray();

    public static string Normalize(string url) => url.TrimEnd('/');

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (ProxyQueueWaitMs >= ProxyTimeoutMs)
        {
            yield return new ValidationResult($"Cluster:ProxyQueueWaitMs ({ProxyQueueWaitMs}) must be shorter than Cluster:ProxyTimeoutMs ({ProxyTimeoutMs}).",
                [nameof(ProxyQueueWaitMs)]);
        }
        var nodes = NodeList;
        if (nodes.Count == 0) yield break;
        foreach (var node in nodes)
        {
            if (!Uri.TryCreate(node, UriKind.Absolute, out var uri) || uri.Scheme != "http")
            {
                yield return new ValidationResult($"Cluster:Nodes: '{node}' is not an http URL (the nodes talk over plain TCP, no TLS).", [nameof(Nodes)]);
            }
        }
        if (nodes.Distinct(StringComparer.OrdinalIgnoreCase).Count() != nodes.Count)
        {
            yield return new ValidationResult("Cluster:Nodes lists a node twice.", [nameof(Nodes)]);
        }
        if (Self is null || !nodes.Contains(Normalize(Self), StringComparer.OrdinalIgnoreCase))
        {
            yield return new ValidationResult($"Cluster:Self ('{Self}') must be one of Cluster:Nodes.", [nameof(Self)]);
        }
    }
}
