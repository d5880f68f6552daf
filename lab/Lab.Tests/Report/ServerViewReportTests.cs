using System.Net;
using System.Text.Json;
using Lab.Metrics;
using Lab.Report;
using Lab.Tests.Metrics;

namespace Lab.Tests.Report;

/// <summary>The service's /metrics scraped before and after a run, beside the client's figures.</summary>
public sealed class ServerViewReportTests
{
    private const string Schedule = "const(100, 10s)";

    [Fact]
    public void TheReportShowsTheServersViewBesideTheClients()
    {
        using var dir = new RunDirectory();
        var run = dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        File.Copy(Samples.PathOf(ServerView.BeforeFile), Path.Combine(run, ServerView.BeforeFile));
        File.Copy(Samples.PathOf(ServerView.AfterFile), Path.Combine(run, ServerView.AfterFile));
        dir.Run("tarantool-memtx", "author-read", 10, _ => 100, _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);

        var md = dir.Read("report.md");
        Assert.Contains("## Server-side view", md);
        Assert.Contains("| postgres | author-read | 1,000 | 1.00 · 1.00 · 1.00 | 2,005 | 0.90 · 0.90 · 5.00 | 5 | tarantool 4 | — | /Author/Get |", md);
        Assert.Contains("estimated from buckets", md);
        Assert.Contains("| tarantool-memtx | author-read | 1,000 | 1.00 · 1.00 · 1.00 | missing: no metrics-before.txt", md);
        Assert.Contains("estimated from buckets", WebUtility.HtmlDecode(dir.Read("report.html")));

        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        var server = summary.RootElement.GetProperty("runs").EnumerateArray()
            .Single(r => r.GetProperty("storage").GetString() == "postgres").GetProperty("server");
        Assert.Equal(2005, server.GetProperty("requests").GetInt64());
        Assert.Equal(5, server.GetProperty("non_2xx").GetInt64());
        Assert.Equal(4, server.GetProperty("backend_timeouts").GetProperty("tarantool").GetInt64());
    }

    [Fact]
    public void ARunThroughAClusterIsItsOwnRowWithTheShareItProxied()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "kv-get", 10, _ => 100, _ => 1, Schedule);
        var cluster = dir.Run("postgres", "kv-get", 10, _ => 100, _ => 2, Schedule, nodes: 3);
        const string histogram = "integration_http_request_duration_seconds_count{route=\"/v0/entity\",storage=\"postgres\",status=\"200\"} ";
        const string proxied = "integration_kv_proxied_requests_total{owner=\"http://127.0.0.1:8081\",outcome=\"relayed\"} ";
        File.WriteAllText(Path.Combine(cluster, ServerView.BeforeFile), $"{histogram}0\n");
        File.WriteAllText(Path.Combine(cluster, ServerView.AfterFile), $"{histogram}1000\n{proxied}667\n");
        ReportBuilder.Build(dir.Path, sloMs: 10);

        var md = dir.Read("report.md");
        Assert.Contains("| postgres | kv-get |", md);
        Assert.Contains("| postgres ×3 | kv-get | 1,000 | 2.00 · 2.00 · 2.00 | 1,000 |", md);
        Assert.Contains("| 667 (66.7 %) | /v0/entity |", md);
        Assert.Contains("![postgres-x3-kv-get](charts/postgres-x3-kv-get.svg)", md);
        Assert.True(File.Exists(Path.Combine(dir.Path, "charts", "postgres-x3-kv-get.svg")));
    }

    [Fact]
    public void ARunWithoutScrapesStillGetsAReportThatSaysTheViewIsMissing()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        Assert.Contains("## Server-side view", dir.Read("report.md"));
        Assert.Contains("Missing: no run has the service's /metrics", dir.Read("report.md"));
        Assert.Contains("Missing: no run has the service", dir.Read("report.html"));
        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        Assert.Contains("metrics-before.txt", summary.RootElement.GetProperty("runs")[0].GetProperty("server").GetProperty("missing").GetString());
    }
}
