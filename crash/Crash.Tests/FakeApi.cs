using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Crash.Tests;

/// <summary>
/// A stand-in for IntegrationService's author, item, queue and key-value routes, in memory. While
/// <see cref="DownFlag"/> exists it answers 503 (and the first such answer creates <see cref="RefusedMarker"/>); with <c>dropEvery</c> it acknowledges every n-th
/// write without keeping it; with <c>redeliverEvery</c> every n-th queue read leaves its message on the queue.
/// The leased read (<c>POST /read?lease=</c>, <c>POST /ack</c>) holds a message for its lease and gives it
/// back when the lease ends; with <c>ackFailsEvery</c> every n-th ack answers 503 and does nothing (once per
/// message), with <c>leaseAnswerLostEvery</c> every n-th lease takes its message and answers 503 (a reader
/// in doubt), and with <c>forgetEndedLeases</c> a lease that ends loses its message instead (a store that
/// breaks its promise).
/// </summary>
internal sealed class FakeApi : IAsyncDisposable
{
    private readonly HttpListener _listener = new();
    private readonly Lock _lock = new();
    private readonly Dictionary<long, JsonObject> _authors = [];
    private readonly Dictionary<long, long[]> _items = [];
    private readonly Queue<(long Id, string Body)> _queue = new();
    private readonly Dictionary<string, string> _kv = new(StringComparer.Ordinal);
    private readonly int _dropEvery;
    private readonly int _redeliverEvery;
    private readonly int _ackFailsEvery;
    private readonly bool _forgetEndedLeases;
    private readonly Dictionary<string, (long Id, string Body, DateTime Ends)> _leases = new(StringComparer.Ordinal);
    private readonly int _leaseAnswerLostEvery;
    private readonly HashSet<long> _ackFailed = [];
    private long _leaseCount, _acks;
    private long _reads;
    private readonly Task _serve;
    private long _nextId = 1000;
    private long _writes;
    private long _received;
    private long _refused;

    public FakeApi(string downFlag, int dropEvery = 0, IReadOnlyDictionary<long, long[]>? items = null, int redeliverEvery = 0, IEnumerable<string>? queued = null,
        int ackFailsEvery = 0, bool forgetEndedLeases = false, int leaseAnswerLostEvery = 0)
    {
        _leaseAnswerLostEvery = leaseAnswerLostEvery;
        _ackFailsEvery = ackFailsEvery;
        _forgetEndedLeases = forgetEndedLeases;
        DownFlag = downFlag;
        _dropEvery = dropEvery;
        _redeliverEvery = redeliverEvery;
        foreach (var message in queued ?? []) _queue.Enqueue((++_nextId, message));
        if (items is not null) foreach (var (id, set) in items) _items[id] = set;
        Port = FreePort();
        _listener.Prefixes.Add($"http://127.0.0.1:{Port}/");
        _listener.Start();
        _serve = ServeAsync();
    }

    public int Port { get; }
    public string Url => $"http://127.0.0.1:{Port}";
    public string DownFlag { get; }

    /// <summary>
    /// A file created when the API first answers 503 because <see cref="DownFlag"/> exists: a fault command that
    /// waits for it holds its outage until a request has met it, however late a loaded machine answers.
    /// </summary>
    public string RefusedMarker => DownFlag + ".refused";
    public long Dropped { get; private set; }

    /// <summary>Write requests answered 503 because <see cref="DownFlag"/> existed.</summary>
    public long WritesRefused => Interlocked.Read(ref _refused);

    /// <summary>Write requests received, answered or not.</summary>
    public long Writes => Interlocked.Read(ref _received);

    private static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    private async Task ServeAsync()
    {
        while (_listener.IsListening)
        {
            HttpListenerContext context;
            try { context = await _listener.GetContextAsync(); }
            catch (Exception e) when (e is HttpListenerException or ObjectDisposedException) { return; }
            _ = AnswerAsync(context);
        }
    }

    private async Task AnswerAsync(HttpListenerContext context)
    {
        var request = context.Request;
        var body = await new StreamReader(request.InputStream).ReadToEndAsync();
        var leasePath = request.Url!.AbsolutePath.StartsWith("/read/", StringComparison.Ordinal) || request.Url.AbsolutePath.StartsWith("/ack/", StringComparison.Ordinal);
        var write = request.HttpMethod is "POST" or "PUT" && !leasePath;
        if (write) Interlocked.Increment(ref _received);
        var down = File.Exists(DownFlag);
        if (down && write) Interlocked.Increment(ref _refused);
        if (down && !File.Exists(RefusedMarker)) await File.WriteAllTextAsync(RefusedMarker, "");
        var (status, answer) = down ? (503, """{"title":"Storage unavailable"}""")
            : Route(request.HttpMethod, request.Url.AbsolutePath, request.QueryString["id"] ?? request.QueryString["lease"], body);
        var bytes = Encoding.UTF8.GetBytes(answer);
        context.Response.StatusCode = status;
        context.Response.ContentType = "application/json";
        context.Response.ContentLength64 = bytes.Length;
        await context.Response.OutputStream.WriteAsync(bytes);
        context.Response.Close();
    }

    private (int, string) Route(string method, string path, string? id, string body)
    {
        lock (_lock)
        {
            var parts = path.Split('/', StringSplitOptions.RemoveEmptyEntries);
            switch (method, parts)
            {
                case ("POST", ["Author", "Save"]):
                {
                    var author = JsonNode.Parse(body)!.AsObject();
                    author["id"] = ++_nextId;
                    if (!Drop()) _authors[_nextId] = author;
                    return (201, author.ToJsonString());
                }
                case ("POST", ["Author", "Update"]):
                {
                    var author = JsonNode.Parse(body)!.AsObject();
                    var authorId = author["id"]!.GetValue<long>();
                    if (!_authors.ContainsKey(authorId)) return (404, "{}");
                    if (!Drop()) _authors[authorId] = author;
                    return (200, author.ToJsonString());
                }
                case ("GET", ["Author", "Get"]):
                    return _authors.TryGetValue(long.Parse(id!), out var found) ? (200, found.ToJsonString()) : (404, "{}");
                case ("GET", ["Author", "GetAll"]):
                    return (200, "[]");
                case ("POST", ["item", var item, "locations"]):
                {
                    var ids = JsonNode.Parse(body)!["LocationIds"]!.AsArray().Select(n => n!.GetValue<long>()).ToArray();
                    if (!Drop()) _items[long.Parse(item)] = ids;
                    return (200, """{"ok":1}""");
                }
                case ("GET", ["item", var item, "locations"]):
                {
                    var ids = _items.GetValueOrDefault(long.Parse(item), []);
                    return (200, JsonSerializer.Serialize(ids.Order().Select(l => new Dictionary<string, object> { ["ID"] = l, ["Location"] = "x" })));
                }
                case ("POST", ["write", var queue]):
                {
                    JsonNode.Parse(body);
                    var messageId = ++_nextId;
                    if (!Drop()) _queue.Enqueue((messageId, body));
                    return (201, $$"""{"queue":"{{queue}}","action":"write","created_message":true,"id":{{messageId}}}""");
                }
                case ("GET", ["read", var queue]):
                {
                    if (_queue.Count == 0) return (204, "");
                    var (messageId, message) = _redeliverEvery > 0 && ++_reads % _redeliverEvery == 0 ? _queue.Peek() : _queue.Dequeue();
                    return (200, $$"""{"queue":"{{queue}}","action":"read","id":{{messageId}},"read_message":{{message}}}""");
                }
                case ("POST", ["read", var queue]):
                {
                    GiveBackEndedLeases();
                    if (_queue.Count == 0) return (204, "");
                    var (messageId, message) = _queue.Dequeue();
                    var receipt = $"r{++_leaseCount}";
                    var seconds = int.Parse(id!.TrimEnd('s'), System.Globalization.CultureInfo.InvariantCulture);
                    _leases[receipt] = (messageId, message, DateTime.UtcNow.AddSeconds(seconds));
                    if (_leaseAnswerLostEvery > 0 && _leaseCount % _leaseAnswerLostEvery == 0) return (503, """{"title":"Storage unavailable"}""");
                    return (200, $$"""{"queue":"{{queue}}","action":"lease","id":{{messageId}},"receipt":"{{receipt}}","lease_ms":{{seconds * 1000}},"read_message":{{message}}}""");
                }
                case ("POST", ["ack", _, var receipt]):
                {
                    GiveBackEndedLeases();
                    if (_ackFailsEvery > 0 && ++_acks % _ackFailsEvery == 0 && _leases.TryGetValue(receipt, out var failing) && _ackFailed.Add(failing.Id))
                        return (503, """{"title":"Storage unavailable"}""");
                    return _leases.Remove(receipt) ? (204, "") : (404, "{}");
                }
                case ("GET", ["depth", var queue]):
                    return (200, $$"""{"queue":"{{queue}}","depth":{{_queue.Count}}}""");
                case ("PUT", ["v0", "entity"]):
                    if (!Drop()) _kv[id!] = body;
                    return (201, "");
                case ("GET", ["v0", "entity"]):
                    return _kv.TryGetValue(id!, out var value) ? (200, value) : (404, "{}");
                default:
                    return (400, "{}");
            }
        }
    }

    private void GiveBackEndedLeases()
    {
        foreach (var (receipt, lease) in _leases.Where(l => l.Value.Ends <= DateTime.UtcNow).ToList())
        {
            _leases.Remove(receipt);
            if (!_forgetEndedLeases) _queue.Enqueue((lease.Id, lease.Body));
        }
    }

    private bool Drop()
    {
        if (_dropEvery <= 0 || ++_writes % _dropEvery != 0) return false;
        Dropped++;
        return true;
    }

    public async ValueTask DisposeAsync()
    {
        _listener.Stop();
        _listener.Close();
        await _serve;
    }
}
