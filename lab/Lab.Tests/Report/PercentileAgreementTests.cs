using System.Globalization;
using System.Text.Json;
using Lab.Report;

namespace Lab.Tests.Report;

/// <summary>
/// One histogram per run: the report's table, summary.json and the run's latency.hgrm give the same
/// percentiles, because they are read from the same HdrHistogram by the same rule.
/// </summary>
public sealed class PercentileAgreementTests
{
    [Fact]
    public void TheTablesP99IsLatencyHgrmsP99()
    {
        using var dir = new RunDirectory();
        // 900 answers at 2 ms, then 100 at 37.3 ms: p95 … p99.9 fall among the slow ones, where a bucket
        // is 32 µs wide (HdrHistogram, 3 digits), so a histogram that reported another point of the
        // bucket (its midpoint, or the exact value) would show in the table's 0.1 ms.
        var postgres = dir.Run("postgres", "kv-get", 10, _ => 100, s => s < 9 ? 2 : 37.3, schedule: "const(100, 10s)");
        // With lateness.log the latencies count from the intended send: lateness + interval_real.
        var redis = dir.Run("redis", "kv-get", 10, _ => 100, s => s < 9 ? 2 : 37.3, schedule: "const(100, 10s)");
        File.WriteAllText(Path.Combine(redis, Tank.Runner.PhoutFormat.LatenessFile), string.Concat(Enumerable.Repeat("1234\n", 1000)));
        ReportBuilder.Build(dir.Path, 100);

        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        var markdown = dir.Read("report.md").Split('\n');
        foreach (var (storage, runDir, slowUs) in new[] { ("postgres", postgres, 37_311L), ("redis", redis, 38_559L) })
        {
            var hgrm = File.ReadAllText(Path.Combine(runDir, "latency.hgrm"));
            var p99 = HgrmValueAt(hgrm, 0.99);
            Assert.Equal(slowUs / 1000.0, p99); // the top of the slow answers' bucket: HdrHistogram's value
            var quantiles = summary.RootElement.GetProperty("runs").EnumerateArray()
                .Single(r => r.GetProperty("storage").GetString() == storage).GetProperty("quantiles_ms");
            foreach (var (name, percentile) in PhoutAnalyzer.Quantiles)
                Assert.Equal(HgrmValueAt(hgrm, percentile / 100), quantiles.GetProperty(name).GetDouble(), 9);

            // The "Every run" table: architecture, scenario, requests, rps, mean, p50, p75, p90, p95, p99, p99.9, max, …
            var row = markdown.Single(l => l.StartsWith($"| {storage} | kv-get | 1000 |", StringComparison.Ordinal))
                .Split('|', StringSplitOptions.TrimEntries)[1..^1];
            var columns = ReportText.RunColumns([]);
            Assert.Equal(ReportText.Ms(p99), row[Array.IndexOf(columns, "p99")]);
            Assert.Equal(ReportText.Ms(HgrmValueAt(hgrm, 0.5)), row[Array.IndexOf(columns, "p50")]);
        }
    }

    /// <summary>
    /// The value latency.hgrm gives at <paramref name="level"/> (0..1): its rows are percentile levels, not
    /// every percentile, so the level must fall where the rows on both sides of it say the same value.
    /// </summary>
    private static double HgrmValueAt(string hgrm, double level)
    {
        var rows = hgrm.Split('\n').Skip(2).TakeWhile(l => !l.StartsWith('#')).Where(l => l.Trim().Length > 0)
            .Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Select(r => (Ms: double.Parse(r[0], CultureInfo.InvariantCulture), Level: double.Parse(r[1], CultureInfo.InvariantCulture)))
            .ToList();
        var below = rows.Last(r => r.Level <= level);
        var above = rows.First(r => r.Level >= level);
        Assert.True(below.Ms == above.Ms, $"latency.hgrm does not pin p{level * 100}: {below} … {above}");
        return above.Ms;
    }
}
