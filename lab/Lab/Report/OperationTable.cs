using System.Globalization;

namespace Lab.Report;

/// <summary>The "per operation" table: each run that carried several tags (a --workload), split by tag.</summary>
public static class OperationTable
{
    public static readonly string[] Columns = ["architecture", "scenario", "operation", "requests", "errors", "mean", "p50", "p99"];

    public const string Method = "Runs whose ammo tagged each request with its operation (tank ammo --workload), split by tag; latencies in ms.";

    public static List<string[]> Rows(IReadOnlyList<RunAnalysis> runs) =>
        runs.SelectMany(r => r.Operations.Select(o => new[]
        {
            r.Storage, r.Scenario, o.Tag, o.Requests.ToString(CultureInfo.InvariantCulture), o.Errors.ToString(CultureInfo.InvariantCulture),
            ReportText.Ms(o.MeanMs), ReportText.Ms(o.P50Ms), ReportText.Ms(o.P99Ms),
        })).ToList();
}
