using Lab.Metrics;

namespace Lab.Tests.Metrics;

public sealed class ServerViewTests
{
    [Fact]
    public void DifferencesTheScrapesOverTheRunsStorage()
    {
        var view = ServerView.FromScrapes(Samples.Before, Samples.After, "postgres");
        Assert.Null(view.Missing);
        Assert.Equal(["/Author/Get"], view.Routes);
        Assert.Equal(2005, view.Requests);
        Assert.Equal(5, view.Non2xx);
        Assert.Equal(1.8005 / 2005 * 1000, view.MeanMs, 6);
        // Cumulative differences: 5 ≤ 0.2 ms, 205 ≤ 0.5 ms, 1205 ≤ 1 ms, 1805 ≤ 2 ms, 1985 ≤ 5 ms, 2005 ≤ 10 ms.
        Assert.Equal((0.0005 + 0.0005 * (1002.5 - 205) / 1000) * 1000, view.P50Ms!.Value, 6);
        Assert.Equal((0.002 + 0.003 * (1984.95 - 1805) / 180) * 1000, view.P99Ms!.Value, 6);
        Assert.Equal(new Dictionary<string, long> { ["tarantool"] = 4 }, view.BackendTimeouts);
    }

    [Fact]
    public void ASeriesFirstSeenAfterTheRunCountsFromZero()
    {
        var view = ServerView.FromScrapes("", Samples.After, "tarantool-memtx");
        Assert.Equal(3000, view.Requests);
        Assert.Equal(0, view.Non2xx);
        Assert.Equal(0.9 / 3000 * 1000, view.MeanMs, 6);
    }

    [Fact]
    public void ProxiedRequestsAreTheForwardedCountsOfTheWindowOverEveryOwner()
    {
        const string histogram = """
            integration_http_request_duration_seconds_bucket{route="/v0/entity",storage="postgres",status="201",le="+Inf"} {0}
            integration_http_request_duration_seconds_sum{route="/v0/entity",storage="postgres",status="201"} 1
            integration_http_request_duration_seconds_count{route="/v0/entity",storage="postgres",status="201"} {0}

            """;
        var before = histogram.Replace("{0}", "100") + """
            integration_kv_proxied_requests_total{owner="http://127.0.0.1:8081",outcome="relayed"} 10
            """;
        var after = histogram.Replace("{0}", "1100") + """
            integration_kv_proxied_requests_total{owner="http://127.0.0.1:8081",outcome="relayed"} 350
            integration_kv_proxied_requests_total{owner="http://127.0.0.1:8082",outcome="relayed"} 320
            integration_kv_proxied_requests_total{owner="http://127.0.0.1:8082",outcome="unavailable"} 7
            """;
        var view = ServerView.FromScrapes(before, after, "postgres");
        Assert.Equal(1000, view.Requests);
        Assert.Equal(340 + 320 + 7, view.ProxiedRequests);
        Assert.Equal(0.667, view.ProxiedShare!.Value, 6);
        Assert.Null(ServerView.FromScrapes(Samples.Before, Samples.After, "postgres").ProxiedShare);
    }

    [Fact]
    public void CountersGoingBackMeanTheServiceRestarted() =>
        Assert.Contains("restarted", ServerView.FromScrapes(Samples.After, Samples.Before, "postgres").Missing);

    [Fact]
    public void WithoutTheFilesTheViewSaysWhyItIsMissing()
    {
        var dir = Directory.CreateTempSubdirectory("tank-server-view-").FullName;
        try
        {
            Assert.Contains(ServerView.BeforeFile, ServerView.Read(dir, "postgres").Missing);
            File.WriteAllText(Path.Combine(dir, ServerView.BeforeFile), "");
            File.WriteAllText(Path.Combine(dir, ServerView.AfterFile), "curl: (7) Failed to connect\n");
            Assert.NotNull(ServerView.Read(dir, "postgres").Missing);
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }
}
