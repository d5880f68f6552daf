using System.Net;
using Prometheus;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// Another node as the forwarding node sees it: its URL, the bound on requests forwarded to it at
/// once (<see cref="ClusterOptions.MaxInFlightPerNode"/>), its <see cref="ClusterOptions.ConnectionsPerNode"/>
/// pipelined connections and its counters, all made once so that a forwarded request allocates none
/// of them.
/// </summary>
public sealed class KvPeer : IDisposable
{
    private readonly EndPoint _endPoint;
    private readonly KvPeerConnection?[] _connections;
    private readonly Task<KvPeerConnection>?[] _opening; // one attempt per slot at a time, shared by its callers
    private readonly Lock _lock = new();
    private int _next;
    private bool _disposed;

    internal KvPeer(string url, int maxInFlight, int connections, Counter proxied)
    {
        Url = url;
        var uri = new Uri(url);
        _endPoint = IPAddress.TryParse(uri.Host, out var address) ? new IPEndPoint(address, uri.Port) : new DnsEndPoint(uri.Host, uri.Port);
        MaxInFlight = maxInFlight;
        InFlight = new SemaphoreSlim(maxInFlight, maxInFlight);
        _connections = new KvPeerConnection?[connections];
        _opening = new Task<KvPeerConnection>?[connections];
        Relayed = proxied.WithLabels(url, "relayed");
        Unavailable = proxied.WithLabels(url, "unavailable");
        Shed = proxied.WithLabels(url, "shed");
    }

    /// <summary>The node's base URL as in <see cref="ClusterOptions.Nodes"/> (normalized).</summary>
    public string Url { get; }

    public int MaxInFlight { get; }

    /// <summary>The connections kept to the node.</summary>
    public int ConnectionCount => _connections.Length;

    /// <summary>A permit per request in flight: taken for the whole exchange with the node, request to last byte of the answer.</summary>
    internal SemaphoreSlim InFlight { get; }

    internal Counter.Child Relayed { get; }

    internal Counter.Child Unavailable { get; }

    internal Counter.Child Shed { get; }

    /// <summary>The next connection in turn (requests are spread round-robin), opened first when it is not open.</summary>
    internal ValueTask<KvPeerConnection> ConnectionAsync(TimeSpan connectTimeout, CancellationToken aborted) =>
        ConnectionAsync((int)((uint)Interlocked.Increment(ref _next) % (uint)_connections.Length), connectTimeout, aborted);

    /// <summary>The connection in <paramref name="slot"/>, opened first (or waiting for the attempt in progress) when it is not open.</summary>
    internal ValueTask<KvPeerConnection> ConnectionAsync(int slot, TimeSpan connectTimeout, CancellationToken aborted)
    {
        var connection = Volatile.Read(ref _connections[slot]);
        return connection is { IsOpen: true } ? ValueTask.FromResult(connection) : new ValueTask<KvPeerConnection>(OpenAsync(slot, connectTimeout, aborted));
    }

    public void Dispose()
    {
        lock (_lock)
        {
            _disposed = true;
            foreach (var connection in _connections) connection?.Dispose();
        }
        InFlight.Dispose();
    }

    private Task<KvPeerConnection> OpenAsync(int slot, TimeSpan connectTimeout, CancellationToken aborted)
    {
        Task<KvPeerConnection> attempt;
        lock (_lock)
        {
            if (_disposed) return Task.FromException<KvPeerConnection>(Stopping());
            if (_connections[slot] is { IsOpen: true } open) return Task.FromResult(open);
            if (_opening[slot] is not { IsCompleted: false }) _opening[slot] = ConnectAsync(slot, connectTimeout);
            attempt = _opening[slot]!;
        }
        // A client that leaves stops waiting; the attempt goes on for the others.
        return attempt.WaitAsync(aborted);
    }

    // Nothing is sent to a node once this one is stopping: a 503, not a failure of the service.
    private KvPeerConnectException Stopping() => new("this node is stopping", new ObjectDisposedException(nameof(KvPeer), $"the connections to {Url} are closed"));

    private async Task<KvPeerConnection> ConnectAsync(int slot, TimeSpan connectTimeout)
    {
        await Task.Yield(); // the attempt is stored under the lock before it can complete
        var connection = await KvPeerConnection.OpenAsync(_endPoint, connectTimeout, CancellationToken.None);
        lock (_lock)
        {
            if (_disposed)
            {
                connection.Dispose();
                throw Stopping();
            }
            _connections[slot]?.Dispose(); // broken already, or it would not have been replaced
            _connections[slot] = connection;
        }
        return connection;
    }
}
