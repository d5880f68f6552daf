using System.Net;
using System.Text;
using Prometheus;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// Another node as the forwarding node sees it: its URL, the bound on requests forwarded to it at
/// once (<see cref="ClusterOptions.MaxConnectionsPerNode"/>, one pooled connection each), its idle
/// connections and its counters, all made once so that a forwarded request allocates none of them.
/// </summary>
public sealed class KvPeer : IDisposable
{
    // Below Kestrel's keep-alive timeout (130 s): an idle connection is dropped before the owner drops it.
    private const long IdleTimeoutMs = 120_000;

    private readonly EndPoint _endPoint;
    private readonly byte[] _headers;
    private readonly Stack<KvPeerConnection> _idle = new();
    private readonly Lock _idleLock = new();

    internal KvPeer(string url, int maxConnections, Counter proxied)
    {
        Url = url;
        var uri = new Uri(url);
        _endPoint = IPAddress.TryParse(uri.Host, out var address) ? new IPEndPoint(address, uri.Port) : new DnsEndPoint(uri.Host, uri.Port);
        _headers = Encoding.ASCII.GetBytes($"Host: {uri.Authority}\r\n{KvCluster.ProxiedHeader}: 1\r\n");
        MaxConnections = maxConnections;
        Connections = new SemaphoreSlim(maxConnections, maxConnections);
        Relayed = proxied.WithLabels(url, "relayed");
        Unavailable = proxied.WithLabels(url, "unavailable");
        Shed = proxied.WithLabels(url, "shed");
    }

    /// <summary>The node's base URL as in <see cref="ClusterOptions.Nodes"/> (normalized).</summary>
    public string Url { get; }

    public int MaxConnections { get; }

    /// <summary>A permit per connection: taken for the whole exchange with the node, request to last byte of the answer.</summary>
    internal SemaphoreSlim Connections { get; }

    internal Counter.Child Relayed { get; }

    internal Counter.Child Unavailable { get; }

    internal Counter.Child Shed { get; }

    /// <summary>An idle connection, or a new one when none is left (the caller holds a permit).</summary>
    internal ValueTask<KvPeerConnection> RentAsync(TimeSpan connectTimeout, CancellationToken aborted)
    {
        while (true)
        {
            KvPeerConnection? connection;
            lock (_idleLock) _idle.TryPop(out connection);
            if (connection is null) return new ValueTask<KvPeerConnection>(KvPeerConnection.OpenAsync(_endPoint, _headers, connectTimeout, aborted));
            if (Environment.TickCount64 - connection.IdleSince < IdleTimeoutMs) return ValueTask.FromResult(connection);
            connection.Dispose();
        }
    }

    /// <summary>Back to the pool when its last exchange ended cleanly; else closed.</summary>
    internal void Return(KvPeerConnection connection)
    {
        if (!connection.Reusable)
        {
            connection.Dispose();
            return;
        }
        connection.IdleSince = Environment.TickCount64;
        lock (_idleLock) _idle.Push(connection);
    }

    /// <summary>Closes every idle connection, so that the next request opens a new one.</summary>
    internal void DropIdle()
    {
        lock (_idleLock)
        {
            while (_idle.TryPop(out var connection)) connection.Dispose();
        }
    }

    public void Dispose()
    {
        DropIdle();
        Connections.Dispose();
    }
}
