using Tank.Report;

namespace Tank.Compare;

/// <summary>The report's analysed runs as the cells compare and verdict judge (what summary.json would say of them).</summary>
public static class RunCells
{
    public static IReadOnlyList<CellFigures> From(IEnumerable<RunAnalysis> runs) => runs.Select(r =>
    {
        var servers = r.Cpu.Where(c => c.Name != "tank").ToList();
        return new CellFigures
        {
            Storage = r.Storage,
            Scenario = r.Scenario,
            // A searched cell's capacity is its confirmed rate (0 when none held), at the confirming hold's p99.
            Capacity = Figure.Single(r.Capacity is { } c ? c.ConfirmedRps : r.MaxSustainedRps),
            Confirmed = r.Capacity is not null,
            LowerBound = r.Capacity is null && r.SloHeldAtPeak,
            P99Ms = Figure.Single(r.Capacity?.ConfirmedP99Ms ?? r.QuantilesMs["p99"]),
            CpuUsPerRequest = servers.Count == 0 ? null : Figure.Single(servers.Sum(r.CpuUsPerRequest)),
            ErrorRate = r.ErrorRate,
        };
    }).ToList();
}
