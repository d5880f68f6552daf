using IntegrationService.Http;
using IntegrationService.Monitoring;
using IntegrationService.Queues;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Patterns;
using Microsoft.Extensions.Options;
using Lab.Metrics;

namespace IntegrationService.Tests.Unit;

/// <summary>The request histogram's labels and the backend counters, without servers (the full service: Http/MetricsEndpointTests).</summary>
public sealed class RequestMetricsTests : IDisposable
{
    private sealed class NoQueue : IQueueStore
    {
        public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<long> CountAsync(CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<long> PurgeAsync(CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<bool> AckAsync(string receipt, CancellationToken cancellationToken) => throw new InvalidOperationException();
        public Task<bool> NackAsync(string receipt, CancellationToken cancellationToken) => throw new InvalidOperationException();
    }

    private readonly BackendActivity _tarantool = new("tarantool");
    private readonly ServiceMetrics _metrics;
    private readonly RequestMetrics _middleware;
    private int _status = 200;

    public RequestMetricsTests()
    {
        _metrics = new ServiceMetrics([new BackendActivitySource(_tarantool, () => 7)]);
        var options = Options.Create(new StorageOptions { Default = "postgres" });
        var registry = new StorageRegistry(
            [
                new StorageArchitecture("postgres", "", "", null, null, ["postgres"], []),
                new StorageArchitecture("redis-aof", "", "", null, null, ["redis-aof"], []) { Queue = new NoQueue(), Aliases = ["redis_aof"] },
                new StorageArchitecture("tarantool-vinyl", "", "", null, null, ["tarantool"], []),
            ],
            options, Options.Create(new IntegrationService.Kv.KvOptions { Default = "tarantool-vinyl" }), new BackendLimiter(options));
        _middleware = new RequestMetrics(context =>
        {
            context.Response.StatusCode = _status;
            return Task.CompletedTask;
        }, _metrics, registry);
    }

    public void Dispose() => _metrics.Dispose();

    private static RouteEndpoint Endpoint(string pattern, params object[] metadata) =>
        new(_ => Task.CompletedTask, RoutePatternFactory.Parse(pattern), 0, new EndpointMetadataCollection(metadata), pattern);

    private async Task RequestAsync(Endpoint? endpoint, string query = "", string? queue = null, int status = 200)
    {
        var context = new DefaultHttpContext();
        context.Request.QueryString = new QueryString(query);
        if (queue is not null) context.Request.RouteValues["queue"] = queue;
        context.SetEndpoint(endpoint);
        _status = status;
        await _middleware.InvokeAsync(context);
    }

    private async Task<List<PrometheusSample>> ScrapeAsync()
    {
        using var stream = new MemoryStream();
        await _metrics.Registry.CollectAndExportAsTextAsync(stream);
        return PrometheusText.Parse(System.Text.Encoding.UTF8.GetString(stream.ToArray()), name => name.StartsWith("integration_", StringComparison.Ordinal));
    }

    private async Task<double> CountAsync(string route, string storage, string status) =>
        (await ScrapeAsync()).SingleOrDefault(s => s.Name == "integration_http_request_duration_seconds_count"
            && s.Label("route") == route && s.Label("storage") == storage && s.Label("status") == status)?.Value ?? 0;

    [Fact]
    public async Task TheStorageLabelIsTheCanonicalNameTheEndpointWillUse()
    {
        var item = Endpoint("/item/{id}/locations/", ReadsStorageParameter.Instance);
        await RequestAsync(item, "?storage=PostGres");
        await RequestAsync(item);
        await RequestAsync(item, "?storage=");
        await RequestAsync(item, "?storage=mysql", status: 400);
        await RequestAsync(item, "?storage=postgres&storage=postgres", status: 400);
        Assert.Equal(3, await CountAsync("/item/{id}/locations", "postgres", "200"));
        Assert.Equal(2, await CountAsync("/item/{id}/locations", "unknown", "400"));
    }

    [Fact]
    public async Task KeyValueRoutesWithoutAStorageAreCountedUnderTheKvDefault()
    {
        var entity = Endpoint("/v0/entity", ReadsStorageParameter.KeyValue);
        await RequestAsync(entity, "?id=k");
        await RequestAsync(entity, "?id=k&storage=");
        await RequestAsync(entity, "?id=k&storage=Postgres");
        Assert.Equal(2, await CountAsync("/v0/entity", "tarantool-vinyl", "200"));
        Assert.Equal(1, await CountAsync("/v0/entity", "postgres", "200"));
    }

    [Fact]
    public async Task QueueRoutesTakeTheirStorageFromTheRoute()
    {
        var write = Endpoint("/write/{queue}");
        await RequestAsync(write, queue: "redis_aof", status: 201);
        await RequestAsync(write, queue: "no-such-queue", status: 400);
        Assert.Equal(1, await CountAsync("/write/{queue}", "redis-aof", "201"));
        Assert.Equal(1, await CountAsync("/write/{queue}", "unknown", "400"));
    }

    [Fact]
    public async Task OtherRoutesHaveNoStorageAndUnmatchedRequestsShareOneRoute()
    {
        await RequestAsync(Endpoint("/health/ready"), "?storage=postgres");
        await RequestAsync(null, status: 404);
        await RequestAsync(new Endpoint(_ => Task.CompletedTask, EndpointMetadataCollection.Empty, "405 HTTP Method Not Supported"), status: 405);
        Assert.Equal(1, await CountAsync("/health/ready", "none", "200"));
        Assert.Equal(1, await CountAsync("unmatched", "none", "404"));
        Assert.Equal(1, await CountAsync("unmatched", "none", "405"));
    }

    [Fact]
    public async Task MetricsItselfIsNotTimed()
    {
        await RequestAsync(Endpoint(ServiceMetrics.Path));
        Assert.DoesNotContain(await ScrapeAsync(), s => s.Label("route") == ServiceMetrics.Path);
    }

    [Fact]
    public async Task TheBackendCountersAreReadAtScrapeTime()
    {
        _tarantool.Begin();
        _tarantool.Begin();
        Assert.Equal(2, _tarantool.InFlight);
        _tarantool.CountTimeout();
        _tarantool.End();
        _tarantool.End();
        Assert.Equal(0, _tarantool.InFlight);

        var samples = await ScrapeAsync();
        Assert.Equal(1, samples.Single(s => s.Name == "integration_backend_timeouts_total" && s.Label("backend") == "tarantool").Value);
        Assert.Equal(7, samples.Single(s => s.Name == "integration_backend_in_flight" && s.Label("backend") == "tarantool").Value);
    }

    [Theory]
    [InlineData("/item/{id}/locations/", "/item/{id}/locations")]
    [InlineData("Author/Get", "/Author/Get")]
    [InlineData("/", "/")]
    [InlineData(null, "/")]
    public void RoutePatternsAreNormalized(string? pattern, string route) => Assert.Equal(route, RouteLabels.Normalize(pattern));
}
