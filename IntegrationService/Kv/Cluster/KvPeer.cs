using Prometheus;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// Another node as the forwarding node sees it: its URL, the bound on requests forwarded to it at
/// once (<see cref="ClusterOptions.MaxConnectionsPerNode"/>, one pooled connection each) and its
/// counters, all made once so that a forwarded request allocates none of them.
/// </summary>
public sealed class KvPeer : IDisposable
{
    internal KvPeer(string url, int maxConnections, Counter proxied)
    {
        Url = url;
        EntityUrl = url + "/v0/entity";
        MaxConnections = maxConnections;
        Connections = new SemaphoreSlim(maxConnections, maxConnections);
        Relayed = proxied.WithLabels(url, "relayed");
        Unavailable = proxied.WithLabels(url, "unavailable");
        Shed = proxied.WithLabels(url, "shed");
    }

    /// <summary>The node's base URL as in <see cref="ClusterOptions.Nodes"/> (normalized).</summary>
    public string Url { get; }

    /// <summary>The node's <c>/v0/entity</c>, to which a forwarded request's query is appended.</summary>
    public string EntityUrl { get; }

    public int MaxConnections { get; }

    /// <summary>A permit per connection: taken for the whole exchange with the node, request to last byte of the answer.</summary>
    internal SemaphoreSlim Connections { get; }

    internal Counter.Child Relayed { get; }

    internal Counter.Child Unavailable { get; }

    internal Counter.Child Shed { get; }

    public void Dispose() => Connections.Dispose();
}
