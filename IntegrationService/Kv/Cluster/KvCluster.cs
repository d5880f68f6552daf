using System.Diagnostics;
using System.Net.Sockets;
using IntegrationService.Monitoring;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The sharded key-value topology: which node owns a key (<see cref="RendezvousHashing"/>), and the
/// proxy hop to it. A node that does not own a key forwards the request to the owner over a bounded
/// pool of keep-alive HTTP/1.1 connections of its own (<see cref="KvPeerConnection"/>) and relays its answer byte for byte; a forwarded request
/// carries <see cref="ProxiedHeader"/> and is always served where it arrives, so nothing is forwarded
/// twice. An owner that cannot be reached in time makes its keys, and only its keys, answer 503; so
/// does one whose <see cref="ClusterOptions.MaxConnectionsPerNode"/> connections stay busy beyond
/// <see cref="ClusterOptions.ProxyQueueWaitMs"/> (shed before anything is sent).
/// </summary>
public sealed class KvCluster : IDisposable
{
    /// <summary>Marks a request one node forwarded to another.</summary>
    public const string ProxiedHeader = "X-Kv-Proxied";

    /// <summary>On a relayed answer: the node that served it.</summary>
    public const string OwnerHeader = "X-Kv-Owner";

    private const string EntityPath = "/v0/entity";

    private readonly RendezvousHashing? _hashing;
    private readonly KvPeer?[] _peers = []; // by node index, null for this node
    private readonly TimeSpan _timeout;
    private readonly TimeSpan _queueWait;

    public KvCluster(IOptions<ClusterOptions> options, ServiceMetrics metrics)
    {
        var cluster = options.Value;
        _timeout = TimeSpan.FromMilliseconds(cluster.ProxyTimeoutMs);
        _queueWait = TimeSpan.FromMilliseconds(cluster.ProxyQueueWaitMs);
        WarmConnectionsPerNode = Math.Min(cluster.WarmConnectionsPerNode, cluster.MaxConnectionsPerNode);
        if (cluster.NodeList.Count == 0) return;
        _hashing = new RendezvousHashing(cluster.NodeList);
        Self = _hashing.Nodes.First(n => string.Equals(n, ClusterOptions.Normalize(cluster.Self!), StringComparison.OrdinalIgnoreCase));
        _peers = _hashing.Nodes
            .Select(n => ReferenceEquals(n, Self) ? null : new KvPeer(n, cluster.MaxConnectionsPerNode, metrics.KvProxied))
            .ToArray();
    }

    /// <summary>This node's URL; null when the service is not part of a cluster.</summary>
    public string? Self { get; }

    /// <summary>Every node's URL (empty for a single node).</summary>
    public IReadOnlyList<string> Nodes => _hashing?.Nodes ?? [];

    /// <summary>The other nodes (empty for a single node).</summary>
    public IEnumerable<KvPeer> Peers => _peers.OfType<KvPeer>();

    /// <summary>Connections <see cref="KvPeerWarmup"/> opens to each other node at start.</summary>
    public int WarmConnectionsPerNode { get; }

    /// <summary>The owner of <paramref name="key"/> when it is another node and the request may be forwarded; else null.</summary>
    public KvPeer? OwnerOf(HttpRequest request, string key) =>
        _hashing is null || request.Headers.ContainsKey(ProxiedHeader) ? null : _peers[_hashing.OwnerIndex(key)];

    /// <summary>
    /// Forwards the request (method, query and <paramref name="value"/>) to <paramref name="owner"/> and
    /// writes its answer as this request's. Throws <see cref="BackendOverloadedException"/> when no
    /// connection to the owner frees up in time (nothing sent) and <see cref="StorageUnavailableException"/>
    /// when the owner does not answer in time (a write may then have been applied: in doubt).
    /// </summary>
    public async Task ForwardAsync(HttpContext context, KvPeer owner, byte[]? value)
    {
        var aborted = context.RequestAborted;
        var request = context.Request;
        if (!owner.Connections.Wait(0)) await WaitForConnectionAsync(owner, aborted);
        RelayedAnswer answer;
        try
        {
            answer = await ExchangeAsync(owner, request.Method, EntityPath, request.QueryString.Value, value, aborted);
            owner.Relayed.Inc();
        }
        catch (Exception e) when (e is IOException or SocketException or OperationCanceledException)
        {
            // The client went away: nothing to answer. As an OperationCanceledException whatever was thrown,
            // so the exception handler answers 499 rather than a 500.
            if (aborted.IsCancellationRequested) throw new OperationCanceledException("The client went away.", e, aborted);
            owner.Unavailable.Inc();
            throw Unavailable(owner, request.Method, e);
        }
        finally
        {
            owner.Connections.Release(); // the answer is read whole: the connection is back in the pool
        }
        await answer.WriteAsync(context.Response, owner.Url, aborted);
    }

    /// <summary>
    /// A GET to <paramref name="peer"/>'s <c>/v0/status</c>, within the proxy timeout; true when it
    /// answered 200. Used to open connections ahead of the first forwarded request.
    /// </summary>
    internal async Task<bool> PingAsync(KvPeer peer, CancellationToken cancellationToken)
    {
        // It holds a connection like a forwarded request, so it takes a permit like one.
        await peer.Connections.WaitAsync(cancellationToken);
        try
        {
            return (await ExchangeAsync(peer, HttpMethods.Get, "/v0/status", null, null, cancellationToken)).Status == StatusCodes.Status200OK;
        }
        catch (Exception e) when (e is IOException or SocketException || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            return false;
        }
        finally
        {
            peer.Connections.Release();
        }
    }

    public void Dispose()
    {
        foreach (var peer in Peers) peer.Dispose();
    }

    private async Task WaitForConnectionAsync(KvPeer owner, CancellationToken aborted)
    {
        if (_queueWait > TimeSpan.Zero && await owner.Connections.WaitAsync(_queueWait, aborted)) return;
        owner.Shed.Inc();
        throw new BackendOverloadedException($"node {owner.Url}",
            $"node {owner.Url}: {owner.MaxConnections} requests are being forwarded to it, the most allowed (Cluster:MaxConnectionsPerNode), " +
            $"and none ended within {_queueWait.TotalMilliseconds:0} ms (Cluster:ProxyQueueWaitMs); nothing was sent to it: retry later.");
    }

    /// <summary>One exchange with the owner on a pooled connection (the caller holds a permit), connect included within the proxy timeout.</summary>
    private async Task<RelayedAnswer> ExchangeAsync(KvPeer owner, string method, string path, string? query, byte[]? body, CancellationToken aborted)
    {
        var started = Stopwatch.GetTimestamp();
        for (var attempt = 1; ; attempt++)
        {
            var connection = await owner.RentAsync(_timeout, aborted);
            var reused = connection.Used;
            try
            {
                var left = _timeout - Stopwatch.GetElapsedTime(started);
                return await connection.ExchangeAsync(method, path, query, body, left > TimeSpan.Zero ? left : TimeSpan.FromMilliseconds(1), aborted);
            }
            catch (KvPeerClosedException) when (reused && attempt == 1)
            {
                // The owner closed the idle connection as we sent on it (it restarted, or timed it out): the
                // request was not read, so it goes once more, on a new connection (the other idle ones were
                // most likely closed with it).
                owner.DropIdle();
            }
            finally
            {
                owner.Return(connection);
            }
        }
    }

    private StorageUnavailableException Unavailable(KvPeer owner, string method, Exception e)
    {
        var reason = e is OperationCanceledException ? $"no answer within {_timeout.TotalMilliseconds:0} ms" : e.Message;
        // A request that never left (no connection) changed nothing; one that did may have been applied.
        if (e is not KvPeerConnectException && !HttpMethods.IsGet(method))
        {
            reason += $". The {method} reached the owner and may still have been applied: the write is in doubt " +
                "(read the key back, or repeat the request: a PUT or DELETE may be repeated safely).";
        }
        return new StorageUnavailableException($"node {owner.Url}", reason, e);
    }
}
