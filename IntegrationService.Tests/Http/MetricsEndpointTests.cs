using System.Net;
using System.Net.Http.Json;
using IntegrationService.Tests.Fixtures;
using Lab.Metrics;

namespace IntegrationService.Tests.Http;

/// <summary>GET /metrics on the real service: the request histogram's labels, Npgsql's meter, the backend clients' counters.</summary>
public sealed class MetricsEndpointTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private const string Histogram = "integration_http_request_duration_seconds";
    private static readonly string[] Backends = ["tarantool", "redis-cache", "redis-persistent", "redis-aof", "redis-rdb", "redis-cluster", "rabbitmq"];

    private async Task<List<PrometheusSample>> ScrapeAsync()
    {
        var response = await service.Client.GetAsync("/metrics");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
        return PrometheusText.Parse(await response.Content.ReadAsStringAsync(), _ => true);
    }

    private static void AssertCounted(List<PrometheusSample> samples, string route, string storage, HttpStatusCode status) =>
        Assert.Contains(samples, s => s.Name == Histogram + "_count" && s.Label("route") == route && s.Label("storage") == storage
                                      && s.Label("status") == ((int)status).ToString() && s.Value >= 1);

    [Fact]
    public async Task RequestsAreCountedByRoutePatternCanonicalStorageAndStatus()
    {
        var missing = Ids.NewItemId();
        Assert.Equal(HttpStatusCode.NotFound, (await service.Client.GetAsync($"/Author/Get?id={missing}&storage=postgres")).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await service.Client.GetAsync("/Author/Get?id=abc")).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await service.Client.GetAsync("/Author/Get?id=1&storage=mysql")).StatusCode);
        var saved = await service.Client.PostAsJsonAsync("/Author/Save?storage=Tarantool-Memtx",
            new { name = "metrics", familyName = "test" }, ServiceFixture.Json);
        Assert.Equal(HttpStatusCode.Created, saved.StatusCode);
        var item = await service.Client.GetAsync($"/item/{missing}/locations?storage=tarantool-vinyl");
        Assert.Equal(HttpStatusCode.Created, (await service.Client.GetAsync("/write/redis_aof")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await service.Client.GetAsync("/no/such/route")).StatusCode);

        var samples = await ScrapeAsync();
        AssertCounted(samples, "/Author/Get", "postgres", HttpStatusCode.NotFound);
        AssertCounted(samples, "/Author/Get", "postgres", HttpStatusCode.BadRequest); // no ?storage=: the default
        AssertCounted(samples, "/Author/Get", "unknown", HttpStatusCode.BadRequest);
        AssertCounted(samples, "/Author/Save", "tarantool-memtx", HttpStatusCode.Created);
        AssertCounted(samples, "/item/{id}/locations", "tarantool-vinyl", item.StatusCode);
        AssertCounted(samples, "/write/{queue}", "redis-aof", HttpStatusCode.Created);
        AssertCounted(samples, "unmatched", "none", HttpStatusCode.NotFound);
        Assert.Contains(samples, s => s.Name == Histogram + "_bucket" && s.Label("route") == "/Author/Save" && s.Label("le") == "+Inf");
        Assert.DoesNotContain(samples, s => s.Name.StartsWith(Histogram, StringComparison.Ordinal) && s.Label("route") == "/metrics");
        Assert.DoesNotContain(samples, s => s.Label("route").Contains("no/such", StringComparison.Ordinal) || s.Label("storage") == "mysql");
    }

    [Fact]
    public async Task NpgsqlsMeterIsExported()
    {
        Assert.Equal(HttpStatusCode.NotFound, (await service.Client.GetAsync($"/Author/Get?id={Ids.NewItemId()}&storage=postgres")).StatusCode);
        var samples = await ScrapeAsync();
        Assert.Contains(samples, s => s.Name.StartsWith("npgsql_db_client_operation_duration", StringComparison.Ordinal));
        Assert.Contains(samples, s => s.Name.StartsWith("npgsql_db_client_connection_count", StringComparison.Ordinal));
        Assert.Contains(samples, s => s.Name == "process_cpu_seconds_total");
    }

    [Fact]
    public async Task EveryBackendClientHasInFlightAndTimeoutSeries()
    {
        var samples = await ScrapeAsync();
        foreach (var backend in Backends)
        {
            Assert.Contains(samples, s => s.Name == "integration_backend_in_flight" && s.Label("backend") == backend && s.Value >= 0);
            Assert.Contains(samples, s => s.Name == "integration_backend_timeouts_total" && s.Label("backend") == backend && s.Value >= 0);
        }
    }
}
