using System.Globalization;
using Lab.Report;
using Tank.Stats;
using Lab.Tests.Report;

namespace Lab.Tests.Stats;

/// <summary>latency.hgrm: each run's whole latency spectrum in HdrHistogram's percentile distribution format, in ms.</summary>
public sealed class LatencySpectrumTests
{
    [Fact]
    public void HgrmIsHdrHistogramsPercentileDistributionInMilliseconds()
    {
        var spectrum = new LatencyHistogram();
        for (var us = 1; us <= 10_000; us++) spectrum.Record(us); // 1 µs … 10 ms, evenly
        var hgrm = spectrum.Hgrm();
        var lines = hgrm.Split('\n');
        Assert.Equal("Value", lines[0].Split(' ', StringSplitOptions.RemoveEmptyEntries)[0]);
        Assert.Contains("#[Mean    =        5.001, StdDeviation   =        2.887]", hgrm);
        Assert.Contains("#[Max     =       10.007, Total count    =        10000]", hgrm);
        // Rows: value (ms), percentile, total count, 1/(1-percentile); the median row says ~5 ms.
        var rows = lines.Skip(2).TakeWhile(l => !l.StartsWith('#')).Where(l => l.Trim().Length > 0)
            .Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries)).ToList();
        var median = rows.First(r => double.Parse(r[1], CultureInfo.InvariantCulture) >= 0.5);
        Assert.InRange(double.Parse(median[0], CultureInfo.InvariantCulture), 4.99, 5.01);
        Assert.Equal(10_000, long.Parse(rows[^1][2], CultureInfo.InvariantCulture));
        Assert.InRange(spectrum.Percentile(99), 9_895, 9_910);
    }

    [Fact]
    public void TheReportWritesLatencyHgrmIntoEveryRunDirectory()
    {
        using var run = new RunDirectory();
        var postgres = run.Run("postgres", "kv-get", 5, _ => 100, s => s < 4 ? 2 : 8, schedule: "const(100, 5s)");
        var redis = run.Run("redis", "kv-get", 5, _ => 100, _ => 1, schedule: "const(100, 5s)");
        ReportBuilder.Build(run.Path, 10);
        var hgrm = File.ReadAllText(Path.Combine(postgres, "latency.hgrm"));
        Assert.Matches(@"#\[Max     =        8\.00\d, Total count    =          500\]", hgrm); // 8 ms within HdrHistogram's 3 digits
        Assert.Contains("#[Max     =        1.000, Total count    =          500]", File.ReadAllText(Path.Combine(redis, "latency.hgrm")));
    }
}
