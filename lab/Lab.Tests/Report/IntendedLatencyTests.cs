using System.Text.Json;
using Lab.Report;
using Harness.CommandLine;
using Tank.Runner;

namespace Lab.Tests.Report;

/// <summary>
/// Latency from the intended send time: with lateness.log beside phout.log the headline quantiles
/// add each request's send lateness to its interval_real, interval_real alone stays beside them,
/// and requests late by more than the SLO are counted.
/// </summary>
public sealed class IntendedLatencyTests
{
    [Fact]
    public void LatenessIsAddedToTheHeadlineAndTheActualSendStaysBesideIt()
    {
        using var dir = new RunDirectory();
        // 10 s × 100 rps at 2 ms; the runner fell 30 ms behind on the last 5 % of the requests.
        var run = dir.Run("postgres", "author-read", 10, _ => 100, _ => 2, "const(100, 10s)");
        File.WriteAllLines(Path.Combine(run, "lateness.log"), Enumerable.Range(0, 1000).Select(i => i >= 950 ? "30000" : "100"));
        var analysis = PhoutAnalyzer.Analyze(Path.Combine(run, "phout.log"), "postgres", "author-read", RunMeta.TryRead(Path.Combine(run, "meta.json")), 10);
        Assert.True(analysis.FromIntendedSend);
        Assert.Equal(32, analysis.QuantilesMs["p99"], 0);
        Assert.Equal(2, analysis.ActualQuantilesMs["p99"], 1);
        Assert.Equal(2.1, analysis.QuantilesMs["p50"], 1);
        Assert.Equal(50, analysis.LateShots);

        ReportBuilder.Build(dir.Path, 10);
        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        var json = summary.RootElement.GetProperty("runs")[0];
        Assert.Equal(50, json.GetProperty("late_shots").GetInt64());
        Assert.StartsWith("intended send time", json.GetProperty("latency_from").GetString());
        Assert.Equal(2, json.GetProperty("actual_send_quantiles_ms").GetProperty("p99").GetDouble(), 1);
        Assert.Contains("Latency counts from each request's intended send time", dir.Read("report.md"));
    }

    [Fact]
    public void WithoutLatenessLogTheRunCountsFromTheActualSend()
    {
        using var dir = new RunDirectory();
        var run = dir.Run("postgres", "author-read", 10, _ => 100, _ => 2, "const(100, 10s)");
        var analysis = PhoutAnalyzer.Analyze(Path.Combine(run, "phout.log"), "postgres", "author-read", null, 10);
        Assert.False(analysis.FromIntendedSend);
        Assert.Null(analysis.LateShots);
        Assert.Equal(analysis.ActualQuantilesMs["p99"], analysis.QuantilesMs["p99"]);
    }

    [Fact]
    public void ALatenessLogShorterThanPhoutIsBadInput()
    {
        using var dir = new RunDirectory();
        var run = dir.Run("postgres", "author-read", 2, _ => 10, _ => 2, "const(10, 2s)");
        File.WriteAllLines(Path.Combine(run, "lateness.log"), ["1", "2"]);
        var e = Assert.Throws<InputException>(() => PhoutAnalyzer.Analyze(Path.Combine(run, "phout.log"), "postgres", "author-read", null, 10));
        Assert.Contains("fewer lines than phout.log", e.Message);
    }

    [Fact]
    public void DroppedShotsArePlannedButNeverSent()
    {
        using var dir = new RunDirectory();
        var run = dir.Run("postgres", "author-read", 2, _ => 10, _ => 2, "const(10, 2s)");
        var meta = RunMeta.TryRead(Path.Combine(run, "meta.json"))! with { PlannedRequests = 20, SentRequests = 17 };
        Assert.Equal(3, PhoutAnalyzer.Analyze(Path.Combine(run, "phout.log"), "postgres", "author-read", meta, 10).DroppedShots);
    }
}
