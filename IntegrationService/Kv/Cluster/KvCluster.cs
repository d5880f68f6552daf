using IntegrationService.Monitoring;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The sharded key-value topology: which node owns a key (<see cref="RendezvousHashing"/>), and the
/// proxy hop to it. A node that does not own a key forwards the request to the owner over a bounded
/// pool of keep-alive HTTP/1.1 connections and relays its answer byte for byte; a forwarded request
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

    // An owner's answer is a value (at most KvLimits.MaxValueBytes) or a small ProblemDetails.
    private const long MaxAnswerBytes = 2L * KvLimits.MaxValueBytes;

    private readonly RendezvousHashing? _hashing;
    private readonly KvPeer?[] _peers = []; // by node index, null for this node
    private readonly HttpMessageInvoker? _http;
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
        // HttpMessageInvoker, not HttpClient: no client-wide timeout or pending-request token to link per call.
        _http = new HttpMessageInvoker(new SocketsHttpHandler
        {
            UseProxy = false,
            AllowAutoRedirect = false,
            UseCookies = false,
            ConnectTimeout = _timeout,
            // The bound: beyond it a request waits in our queue (KvPeer.Connections), never in the handler's.
            MaxConnectionsPerServer = cluster.MaxConnectionsPerNode,
            // Below Kestrel's keep-alive timeout (130 s): the pool drops an idle connection before the owner does.
            PooledConnectionIdleTimeout = TimeSpan.FromSeconds(120),
            PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
            // No traceparent header or activity per forwarded request.
            ActivityHeadersPropagator = null,
        }, disposeHandler: true);
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
        if (!owner.Connections.Wait(0)) await WaitForConnectionAsync(owner, aborted);
        RelayedAnswer answer;
        try
        {
            answer = await ExchangeAsync(context.Request, owner, value, aborted);
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
        using var message = new HttpRequestMessage(HttpMethod.Get, peer.Url + "/v0/status");
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(_timeout);
        try
        {
            using var response = await _http!.SendAsync(message, deadline.Token);
            return response.IsSuccessStatusCode;
        }
        catch (Exception e) when (e is HttpRequestException || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
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
        _http?.Dispose();
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

    /// <summary>One exchange with the owner within the proxy timeout, its answer read whole.</summary>
    private async Task<RelayedAnswer> ExchangeAsync(HttpRequest request, KvPeer owner, byte[]? value, CancellationToken aborted)
    {
        using var message = new HttpRequestMessage(Method(request.Method), owner.EntityUrl + request.QueryString.Value);
        message.Headers.TryAddWithoutValidation(ProxiedHeader, "1");
        if (value is not null)
        {
            message.Content = new ByteArrayContent(value);
            message.Content.Headers.TryAddWithoutValidation("Content-Type", "application/octet-stream");
        }
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(aborted);
        deadline.CancelAfter(_timeout);
        try
        {
            using var response = await _http!.SendAsync(message, deadline.Token);
            var answer = new RelayedAnswer(response, await ReadBodyAsync(response.Content, deadline.Token));
            owner.Relayed.Inc();
            return answer;
        }
        catch (Exception e) when (e is HttpRequestException or OperationCanceledException or IOException)
        {
            // The client went away: nothing to answer. As an OperationCanceledException whatever the client
            // library threw, so the exception handler answers 499 rather than a 500.
            if (aborted.IsCancellationRequested) throw new OperationCanceledException("The client went away.", e, aborted);
            owner.Unavailable.Inc();
            throw Unavailable(owner, request.Method, e);
        }
    }

    /// <summary>The answer's body in one array of its exact length (a value has a Content-Length; a ProblemDetails may be chunked).</summary>
    private static async Task<byte[]> ReadBodyAsync(HttpContent content, CancellationToken cancellationToken)
    {
        var length = content.Headers.ContentLength;
        if (length is null) return await content.ReadAsByteArrayAsync(cancellationToken);
        if (length > MaxAnswerBytes) throw new HttpRequestException($"the answer's {length} bytes exceed the {MaxAnswerBytes} a value or a problem can take");
        if (length == 0) return [];
        var body = new byte[length.Value];
        await using var stream = await content.ReadAsStreamAsync(cancellationToken);
        await stream.ReadExactlyAsync(body, cancellationToken);
        return body;
    }

    private StorageUnavailableException Unavailable(KvPeer owner, string method, Exception e)
    {
        var reason = e is OperationCanceledException ? $"no answer within {_timeout.TotalMilliseconds:0} ms" : e.Message;
        // A request that never left (no connection) changed nothing; one that did may have been applied.
        var sent = e is not HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError };
        if (sent && !HttpMethods.IsGet(method))
        {
            reason += $". The {method} reached the owner and may still have been applied: the write is in doubt " +
                "(read the key back, or repeat the request: a PUT or DELETE may be repeated safely).";
        }
        return new StorageUnavailableException($"node {owner.Url}", reason, e);
    }

    private static HttpMethod Method(string method) =>
        HttpMethods.IsGet(method) ? HttpMethod.Get : HttpMethods.IsPut(method) ? HttpMethod.Put : HttpMethod.Delete;
}
