using System.Net.Sockets;
using IntegrationService.Monitoring;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The sharded key-value topology: which node owns a key (<see cref="RendezvousHashing"/>), and the
/// proxy hop to it. A node that does not own a key has the owner run the store operation over
/// connections of its own (<see cref="ClusterOptions.ConnectionsPerNode"/>, one by default) that carry
/// many requests at once (<see cref="KvPeerConnection"/>, the hop's own frames, pipelined) and answers
/// the client itself from the owner's result, exactly as it answers a key of its own
/// (<see cref="KvPeerStore"/>); the owner serves a forwarded request itself (<see cref="KvPeerServer"/>),
/// so nothing is forwarded twice. An owner that cannot be reached in time makes its keys, and only
/// its keys, answer 503; so does one that already has
/// <see cref="ClusterOptions.MaxInFlightPerNode"/> of this node's requests in hand beyond
/// <see cref="ClusterOptions.ProxyQueueWaitMs"/> (shed before anything is sent).
/// </summary>
public sealed class KvCluster : IDisposable
{
    /// <summary>An HTTP request that carries it is served where it arrives, whoever owns its key (to read one node's own copy).</summary>
    public const string ProxiedHeader = "X-Kv-Proxied";

    /// <summary>On an answer about another node's key: the node that served it.</summary>
    public const string OwnerHeader = "X-Kv-Owner";

    private readonly RendezvousHashing? _hashing;
    private readonly KvPeer?[] _peers = []; // by node index, null for this node
    private readonly long _timeoutMs;
    private readonly TimeSpan _queueWait;

    public KvCluster(IOptions<ClusterOptions> options, ServiceMetrics metrics)
    {
        var cluster = options.Value;
        _timeoutMs = cluster.ProxyTimeoutMs;
        _queueWait = TimeSpan.FromMilliseconds(cluster.ProxyQueueWaitMs);
        WarmConnectionsPerNode = Math.Min(cluster.WarmConnectionsPerNode, cluster.ConnectionsPerNode);
        if (cluster.NodeList.Count == 0) return;
        _hashing = new RendezvousHashing(cluster.NodeList);
        Self = _hashing.Nodes.First(n => string.Equals(n, ClusterOptions.Normalize(cluster.Self!), StringComparison.OrdinalIgnoreCase));
        _peers = _hashing.Nodes
            .Select(n => ReferenceEquals(n, Self) ? null : new KvPeer(n, cluster.MaxInFlightPerNode, cluster.ConnectionsPerNode, metrics.KvProxied))
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
    /// Has <paramref name="owner"/> run <paramref name="op"/> on <paramref name="key"/> of the architecture
    /// <paramref name="storage"/> and returns its answer. Throws <see cref="BackendOverloadedException"/>
    /// when no place to the owner frees up in time (nothing sent) and <see cref="StorageUnavailableException"/>
    /// when the owner does not answer in time (a write may then have been applied: in doubt).
    /// </summary>
    internal async Task<KvPeerReply> ForwardAsync(KvPeer owner, KvPeerOp op, string? storage, string key, ReadOnlyMemory<byte> value, CancellationToken aborted)
    {
        if (!owner.InFlight.Wait(0)) await WaitForPlaceAsync(owner, aborted);
        try
        {
            var reply = await ExchangeAsync(owner, op, storage, key, value, aborted);
            owner.Relayed.Inc();
            return reply;
        }
        catch (Exception e) when (e is IOException or SocketException or OperationCanceledException or TimeoutException)
        {
            // The client went away: nothing to answer. As an OperationCanceledException whatever was thrown,
            // so the exception handler answers 499 rather than a 500.
            if (aborted.IsCancellationRequested) throw new OperationCanceledException("The client went away.", e, aborted);
            owner.Unavailable.Inc();
            throw Unavailable(owner, op, e);
        }
        finally
        {
            owner.InFlight.Release(); // the answer is read whole (or will never be awaited)
        }
    }

    /// <summary>
    /// A ping to <paramref name="peer"/> on its connection <paramref name="slot"/>, within the proxy
    /// timeout; true when it answered. Used to open connections ahead of the first forwarded request.
    /// </summary>
    internal async Task<bool> PingAsync(KvPeer peer, int slot, CancellationToken cancellationToken)
    {
        // It is a request in flight like a forwarded one, so it takes a place like one.
        await peer.InFlight.WaitAsync(cancellationToken);
        try
        {
            var connection = await peer.ConnectionAsync(slot, TimeSpan.FromMilliseconds(_timeoutMs), cancellationToken);
            var answer = await connection.ExchangeAsync(KvPeerOp.Ping, null, "", default, Environment.TickCount64 + _timeoutMs, cancellationToken);
            return answer.Outcome == KvPeerOutcome.Done;
        }
        catch (Exception e) when (e is IOException or SocketException or TimeoutException || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            return false;
        }
        finally
        {
            peer.InFlight.Release();
        }
    }

    public void Dispose()
    {
        foreach (var peer in Peers) peer.Dispose();
    }

    private async Task WaitForPlaceAsync(KvPeer owner, CancellationToken aborted)
    {
        if (_queueWait > TimeSpan.Zero && await owner.InFlight.WaitAsync(_queueWait, aborted)) return;
        owner.Shed.Inc();
        throw new BackendOverloadedException($"node {owner.Url}",
            $"node {owner.Url}: {owner.MaxInFlight} requests are being forwarded to it, the most allowed (Cluster:MaxInFlightPerNode), " +
            $"and none ended within {_queueWait.TotalMilliseconds:0} ms (Cluster:ProxyQueueWaitMs); nothing was sent to it: retry later.");
    }

    /// <summary>
    /// One exchange with the owner (the caller holds a place), connect included, within the proxy timeout.
    /// A request whose connection ended before its answer goes once more on a new connection while time
    /// is left: every key-value request may be repeated safely (GET; PUT and DELETE set the same state
    /// again), and most often it was never read (the owner restarted, or closed an idle connection).
    /// </summary>
    private async Task<KvPeerReply> ExchangeAsync(KvPeer owner, KvPeerOp op, string? storage, string key, ReadOnlyMemory<byte> value, CancellationToken aborted)
    {
        var deadline = Environment.TickCount64 + _timeoutMs;
        KvPeerClosedException? earlier = null;
        while (true)
        {
            KvPeerConnection connection;
            try
            {
                connection = await owner.ConnectionAsync(TimeSpan.FromMilliseconds(Math.Max(1, deadline - Environment.TickCount64)), aborted);
            }
            catch (KvPeerConnectException e) when (earlier is not null)
            {
                // The first attempt was sent and may have been applied: not "nothing was sent".
                throw new IOException($"{earlier.Message}; then no new connection ({e.Message})", e);
            }
            try
            {
                return await connection.ExchangeAsync(op, storage, key, value, deadline, aborted);
            }
            catch (KvPeerClosedException e) when (earlier is null && Environment.TickCount64 < deadline)
            {
                earlier = e;
            }
        }
    }

    private StorageUnavailableException Unavailable(KvPeer owner, KvPeerOp op, Exception e)
    {
        var reason = e is OperationCanceledException or TimeoutException ? $"no answer within {_timeoutMs} ms" : e.Message;
        // A request that never left (no connection) changed nothing; one that did may have been applied.
        if (e is not KvPeerConnectException && (op is KvPeerOp.Put or KvPeerOp.Delete))
        {
            var method = op == KvPeerOp.Put ? HttpMethods.Put : HttpMethods.Delete;
            reason += $". The {method} reached the owner and may still have been applied: the write is in doubt " +
                "(read the key back, or repeat the request: a PUT or DELETE may be repeated safely).";
        }
        return new StorageUnavailableException($"node {owner.Url}", reason, e);
    }
}
