using System.Text.Json;
using Lab.Report;

namespace Lab.Tests.Report;

/// <summary>A run whose ammo tagged each request with its operation is split by tag in summary.json and report.md.</summary>
public sealed class OperationSplitTests
{
    [Fact]
    public void AWorkloadRunIsSplitByTagAndASingleTagRunIsNot()
    {
        using var run = new RunDirectory();
        var dir = run.Run("postgres", "kv-get", 5, _ => 100, _ => 2, schedule: "const(100, 5s)");
        run.Run("redis", "kv-get", 5, _ => 100, _ => 1, schedule: "const(100, 5s)");
        // Every fourth request an update that answered 500.
        var phout = Path.Combine(dir, "phout.log");
        var lines = File.ReadAllLines(phout).Select((l, i) => i % 4 == 3
            ? l.Replace("\tkv-get\t", "\tupdate\t").Replace("\t0\t200", "\t0\t500")
            : l.Replace("\tkv-get\t", "\tread\t"));
        File.WriteAllLines(phout, lines);
        ReportBuilder.Build(run.Path, 10);

        using var summary = JsonDocument.Parse(run.Read("summary.json"));
        var runs = summary.RootElement.GetProperty("runs").EnumerateArray().ToList();
        var operations = runs.Single(r => r.GetProperty("storage").GetString() == "postgres").GetProperty("operations").EnumerateArray().ToList();
        Assert.Equal(["read", "update"], operations.Select(o => o.GetProperty("tag").GetString()));
        Assert.Equal([375L, 125L], operations.Select(o => o.GetProperty("requests").GetInt64()));
        Assert.Equal([0L, 125L], operations.Select(o => o.GetProperty("errors").GetInt64()));
        Assert.Equal(JsonValueKind.Null, runs.Single(r => r.GetProperty("storage").GetString() == "redis").GetProperty("operations").ValueKind);
        Assert.Contains("| postgres | kv-get | update | 125 | 125 |", run.Read("report.md"));
    }
}
