using System.Buffers;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using IntegrationService.Kv;
using IntegrationService.Kv.Cluster;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Kv;

/// <summary>Three service nodes, each with its own PostgreSQL database, sharding keys by rendezvous hashing.</summary>
public sealed class KvClusterTests(KvClusterFixture cluster) : IClassFixture<KvClusterFixture>
{
    private readonly RendezvousHashing _hashing = new(cluster.Urls);

    private static string Url(string key) => $"/v0/entity?id={Uri.EscapeDataString(key)}";

    private int OwnerIndex(string key) => Array.IndexOf(cluster.Urls, _hashing.Owner(key));

    private static string[] NewKeys(int count) => Enumerable.Range(0, count).Select(i => $"cluster-{Guid.NewGuid():N}-{i}").ToArray();

    [Fact]
    public async Task AKeyPutThroughAnyNodeIsStoredOnceByItsOwnerAndReadsBackThroughEveryNode()
    {
        var keys = NewKeys(30);
        for (var k = 0; k < keys.Length; k++)
        {
            var put = await cluster.Clients[k % KvClusterFixture.Size].PutAsync(Url(keys[k]), new ByteArrayContent([(byte)k, 0, 255]));
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        }
        var owners = new HashSet<int>();
        foreach (var (key, k) in keys.Select((key, k) => (key, k)))
        {
            var copies = await cluster.CopiesAsync(key);
            Assert.Equal(1, copies.Sum());
            Assert.Equal(1, copies[OwnerIndex(key)]);
            owners.Add(OwnerIndex(key));
            foreach (var client in cluster.Clients)
            {
                var get = await client.GetAsync(Url(key));
                Assert.Equal(HttpStatusCode.OK, get.StatusCode);
                Assert.Equal("application/octet-stream", get.Content.Headers.ContentType?.MediaType);
                Assert.Equal(new byte[] { (byte)k, 0, 255 }, await get.Content.ReadAsByteArrayAsync());
            }
        }
        Assert.Equal(KvClusterFixture.Size, owners.Count); // 30 keys reach every node

        foreach (var key in keys.Take(6))
        {
            Assert.Equal(HttpStatusCode.Accepted, (await cluster.Clients[(OwnerIndex(key) + 1) % KvClusterFixture.Size].DeleteAsync(Url(key))).StatusCode);
            Assert.Equal(new[] { 0, 0, 0 }, await cluster.CopiesAsync(key));
            foreach (var client in cluster.Clients) Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync(Url(key))).StatusCode);
        }
    }

    [Fact]
    public async Task AnotherNodesKeyIsAnsweredAsTheOwnerWouldIncludingItsProblems()
    {
        var key = NewKeys(1)[0];
        var other = cluster.Clients[(OwnerIndex(key) + 1) % KvClusterFixture.Size];
        var missing = await other.GetAsync(Url(key));
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        Assert.Equal("application/problem+json", missing.Content.Headers.ContentType?.MediaType);
        Assert.Equal(cluster.Urls[OwnerIndex(key)], missing.Headers.GetValues(KvCluster.OwnerHeader).Single());

        var large = new byte[KvLimits.MaxValueBytes];
        new Random(7).NextBytes(large);
        Assert.Equal(HttpStatusCode.Created, (await other.PutAsync(Url(key), new ByteArrayContent(large))).StatusCode);
        Assert.Equal(large, await (await other.GetAsync(Url(key))).Content.ReadAsByteArrayAsync());

        // Refused where it arrives: a bad request is never forwarded.
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, (await other.PutAsync(Url(key), new ByteArrayContent(new byte[KvLimits.MaxValueBytes + 1]))).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await other.GetAsync($"/v0/entity?id={key}&storage=mysql")).StatusCode);
    }

    [Fact]
    public async Task AProxiedRequestIsServedWhereItArrivesSoNothingIsForwardedTwice()
    {
        var key = NewKeys(1)[0];
        var nonOwner = (OwnerIndex(key) + 1) % KvClusterFixture.Size;
        var request = new HttpRequestMessage(HttpMethod.Put, Url(key)) { Content = new ByteArrayContent([42]) };
        request.Headers.Add(KvCluster.ProxiedHeader, "1");
        var response = await cluster.Clients[nonOwner].SendAsync(request);
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.False(response.Headers.Contains(KvCluster.OwnerHeader));
        var copies = await cluster.CopiesAsync(key);
        Assert.Equal(1, copies[nonOwner]); // stored where it arrived, not forwarded again
        Assert.Equal(1, copies.Sum());
    }

    [Fact]
    public async Task WhileANodeIsDownOnlyItsKeysAre503AndEverythingReadsBackWhenItReturns()
    {
        var keys = NewKeys(30);
        foreach (var key in keys)
        {
            Assert.Equal(HttpStatusCode.Created, (await cluster.Clients[0].PutAsync(Url(key), new ByteArrayContent([7]))).StatusCode);
        }
        const int down = 2;
        var shutdownTimeout = cluster.ShutdownTimeout(down);
        var stopping = Stopwatch.StartNew();
        await cluster.StopAsync(down);
        // The other nodes' connections to it are not HTTP: unless it closes them itself, Kestrel waits
        // for them until the host's shutdown timeout and then resets them.
        Assert.True(stopping.Elapsed < shutdownTimeout / 3, $"the node took {stopping.Elapsed.TotalSeconds:0.0} s to stop (shutdown timeout {shutdownTimeout.TotalSeconds} s)");
        try
        {
            foreach (var key in keys)
            {
                foreach (var node in new[] { 0, 1 })
                {
                    var get = await cluster.Clients[node].GetAsync(Url(key));
                    if (OwnerIndex(key) == down)
                    {
                        Assert.Equal(HttpStatusCode.ServiceUnavailable, get.StatusCode);
                        Assert.NotNull(get.Headers.RetryAfter);
                        Assert.Equal("application/problem+json", get.Content.Headers.ContentType?.MediaType);
                    }
                    else
                    {
                        Assert.Equal(HttpStatusCode.OK, get.StatusCode);
                    }
                }
            }
            Assert.Contains(keys, key => OwnerIndex(key) == down);
        }
        finally
        {
            await cluster.StartAsync(down);
        }
        foreach (var key in keys)
        {
            foreach (var client in cluster.Clients)
            {
                var get = await client.GetAsync(Url(key));
                Assert.Equal(HttpStatusCode.OK, get.StatusCode);
                Assert.Equal([7], await get.Content.ReadAsByteArrayAsync());
            }
        }
    }

    [Fact]
    public async Task StatusShowsThisNodeAndTheNodeList()
    {
        for (var i = 0; i < KvClusterFixture.Size; i++)
        {
            var status = await cluster.Clients[i].GetFromJsonAsync<KvStatusResponse>("/v0/status", ServiceFixture.Json);
            Assert.Equal("ok", status!.Status);
            Assert.Equal(cluster.Urls[i], status.Node);
            Assert.Equal(cluster.Urls, status.Nodes);
        }
    }

    [Fact]
    public async Task ANodesConnectionOnTheHttpPortRunsItsRequestsTogetherAndAnswersInOrderServingEachWhereItArrives()
    {
        var keys = NewKeys(2);
        var missing = NewKeys(1)[0];
        using var hop = await HopAsync(0);

        var written = await hop.ExchangeAsync(
            (KvPeerOp.Put, null, keys[0], [5, 6]), (KvPeerOp.Put, null, keys[1], [7]), (KvPeerOp.Get, null, missing, null),
            (KvPeerOp.Get, "mysql", keys[0], null), (KvPeerOp.Ping, null, "", null));
        Assert.Equal([KvPeerOutcome.Done, KvPeerOutcome.Done, KvPeerOutcome.NotFound, KvPeerOutcome.Refused, KvPeerOutcome.Done], written.Select(r => r.Outcome));
        Assert.Contains("mysql", written[3].Detail);

        var read = await hop.ExchangeAsync((KvPeerOp.Get, null, keys[0], null), (KvPeerOp.Get, "postgres", keys[1], null));
        Assert.Equal(new byte[] { 5, 6 }, read[0].Value);
        Assert.Equal(new byte[] { 7 }, read[1].Value);
        foreach (var key in keys) Assert.Equal(new[] { 1, 0, 0 }, await cluster.CopiesAsync(key)); // on node 0, whoever owns it

        var deleted = await hop.ExchangeAsync((KvPeerOp.Delete, null, keys[0], null), (KvPeerOp.Delete, null, keys[1], null));
        Assert.All(deleted, r => Assert.Equal(KvPeerOutcome.Done, r.Outcome));
        foreach (var key in keys) Assert.Equal(new[] { 0, 0, 0 }, await cluster.CopiesAsync(key));
    }

    [Fact]
    public async Task AConnectionThatIsNeitherHttpNorANodesIsClosed()
    {
        var uri = new Uri(cluster.Urls[1]);
        using var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync(uri.Host, uri.Port);
        var stream = client.GetStream();
        await stream.WriteAsync("\0not-a-node/9\n"u8.ToArray());
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        Assert.Equal(0, await stream.ReadAsync(new byte[16], timeout.Token));
        Assert.Equal(HttpStatusCode.OK, (await cluster.Clients[1].GetAsync("/v0/status")).StatusCode); // and HTTP still is served
    }

    private async Task<RawHop> HopAsync(int node)
    {
        var uri = new Uri(cluster.Urls[node]);
        var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync(uri.Host, uri.Port);
        await client.GetStream().WriteAsync(KvPeerProtocol.Preface.ToArray());
        return new RawHop(client);
    }

    /// <summary>The hop spoken by hand: a batch of request frames in one send, then their answers.</summary>
    private sealed class RawHop(System.Net.Sockets.TcpClient client) : IDisposable
    {
        private byte[] _received = [];

        public async Task<KvPeerReply[]> ExchangeAsync(params (KvPeerOp Op, string? Storage, string Key, byte[]? Value)[] requests)
        {
            var batch = new List<byte>();
            foreach (var (op, storage, key, value) in requests)
            {
                var frame = new byte[KvPeerProtocol.MaxRequestBytes(value?.Length ?? 0)];
                batch.AddRange(frame[..KvPeerProtocol.WriteRequest(frame, op, storage, key, value)]);
            }
            var stream = client.GetStream();
            await stream.WriteAsync(batch.ToArray());
            var replies = new List<KvPeerReply>();
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            var chunk = new byte[4096];
            while (true)
            {
                var buffer = new ReadOnlySequence<byte>(_received);
                while (replies.Count < requests.Length && KvPeerProtocol.TryReadFrame(ref buffer, out var frame)) replies.Add(KvPeerProtocol.ParseReply(frame));
                _received = buffer.ToArray();
                if (replies.Count == requests.Length) return replies.ToArray();
                var n = await stream.ReadAsync(chunk, timeout.Token);
                Assert.NotEqual(0, n);
                _received = [.. _received, .. chunk[..n]];
            }
        }

        public void Dispose() => client.Dispose();
    }
}
