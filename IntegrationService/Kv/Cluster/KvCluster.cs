using IntegrationService.Monitoring;
using IntegrationService.Storage;
using Microsoft.Extensions.Options;
using Prometheus;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The sharded key-value topology: which node owns a key (<see cref="RendezvousHashing"/>), and the
/// proxy hop to it. A node that does not own a key forwards the request to the owner over pooled
/// keep-alive HTTP and relays its answer byte for byte; a forwarded request carries
/// <see cref="ProxiedHeader"/> and is always served where it arrives, so nothing is forwarded twice.
/// An owner that cannot be reached in time makes its keys, and only its keys, answer 503.
/// </summary>
public sealed class KvCluster : IDisposable
{
    /// <summary>Marks a request one node forwarded to another.</summary>
    public const string ProxiedHeader = "X-Kv-Proxied";

    /// <summary>On a relayed answer: the node that served it.</summary>
    public const string OwnerHeader = "X-Kv-Owner";

    private readonly RendezvousHashing? _hashing;
    private readonly HttpClient? _http;
    private readonly TimeSpan _timeout;
    private readonly Counter _proxied;

    public KvCluster(IOptions<ClusterOptions> options, ServiceMetrics metrics)
    {
        var cluster = options.Value;
        _timeout = TimeSpan.FromMilliseconds(cluster.ProxyTimeoutMs);
        _proxied = metrics.KvProxied;
        if (cluster.NodeList.Count == 0) return;
        _hashing = new RendezvousHashing(cluster.NodeList);
        Self = _hashing.Nodes.First(n => string.Equals(n, ClusterOptions.Normalize(cluster.Self!), StringComparison.OrdinalIgnoreCase));
        _http = new HttpClient(new SocketsHttpHandler
        {
            UseProxy = false,
            AllowAutoRedirect = false,
            UseCookies = false,
            ConnectTimeout = _timeout,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(1),
            PooledConnectionLifetime = TimeSpan.FromMinutes(5),
        })
        {
            Timeout = Timeout.InfiniteTimeSpan, // each call has its own deadline
        };
    }

    /// <summary>This node's URL; null when the service is not part of a cluster.</summary>
    public string? Self { get; }

    /// <summary>Every node's URL (empty for a single node).</summary>
    public IReadOnlyList<string> Nodes => _hashing?.Nodes ?? [];

    /// <summary>The owner of <paramref name="key"/> when it is another node and the request may be forwarded; else null.</summary>
    public string? ForwardTo(HttpRequest request, string key)
    {
        if (_hashing is null || request.Headers.ContainsKey(ProxiedHeader)) return null;
        var owner = _hashing.Owner(key);
        return ReferenceEquals(owner, Self) ? null : owner;
    }

    /// <summary>Forwards the request to <paramref name="owner"/> and returns its answer to relay as it is.</summary>
    public async Task<IResult> ForwardAsync(HttpContext context, string owner, ReadOnlyMemory<byte>? body)
    {
        var request = context.Request;
        using var message = new HttpRequestMessage(new HttpMethod(request.Method), owner + request.Path + request.QueryString);
        message.Headers.Add(ProxiedHeader, "1");
        if (body is { } value)
        {
            message.Content = new ReadOnlyMemoryContent(value);
            message.Content.Headers.ContentType = new("application/octet-stream");
        }
        using var deadline = new CancellationTokenSource(_timeout);
        try
        {
            using var response = await _http!.SendAsync(message, HttpCompletionOption.ResponseContentRead, deadline.Token);
            var answer = await response.Content.ReadAsByteArrayAsync(deadline.Token);
            _proxied.WithLabels(owner, "relayed").Inc();
            return new RelayedAnswer(owner, response, answer);
        }
        catch (Exception e) when (e is HttpRequestException or OperationCanceledException)
        {
            _proxied.WithLabels(owner, "unavailable").Inc();
            throw new StorageUnavailableException($"node {owner}",
                e is OperationCanceledException ? $"no answer within {_timeout.TotalMilliseconds} ms" : e.Message, e);
        }
    }

    public void Dispose() => _http?.Dispose();

    /// <summary>The owner's status, Content-Type, Retry-After and Allow, and its body byte for byte.</summary>
    private sealed class RelayedAnswer(string owner, HttpResponseMessage response, byte[] body) : IResult
    {
        private readonly int _status = (int)response.StatusCode;
        private readonly string? _contentType = response.Content.Headers.ContentType?.ToString();
        private readonly string? _retryAfter = response.Headers.RetryAfter?.ToString();
        private readonly string? _allow = response.Content.Headers.Allow.Count > 0 ? string.Join(", ", response.Content.Headers.Allow) : null;

        public Task ExecuteAsync(HttpContext httpContext)
        {
            var answer = httpContext.Response;
            answer.StatusCode = _status;
            answer.Headers[OwnerHeader] = owner;
            if (_contentType is not null) answer.ContentType = _contentType;
            if (_retryAfter is not null) answer.Headers.RetryAfter = _retryAfter;
            if (_allow is not null) answer.Headers.Allow = _allow;
            answer.ContentLength = body.Length;
            return body.Length == 0 ? Task.CompletedTask : answer.Body.WriteAsync(body).AsTask();
        }
    }
}
