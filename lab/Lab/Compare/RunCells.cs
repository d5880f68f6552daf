using Lab.Report;
using Tank.Ammo;

namespace Lab.Compare;

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
            // A searched cell's capacity is its median confirmed rate (0 when none held) with the
            // repetitions' min–max, at the confirming holds' p99.
            Capacity = r.Capacity is { } c
                ? new Figure(c.ConfirmedRps, c.ConfirmedSpread is { } s ? new Spread(Math.Min(s.Min, c.ConfirmedRps), Math.Max(s.Max, c.ConfirmedRps)) : Spread.Of(c.ConfirmedRps))
                : Figure.Single(r.MaxSustainedRps),
            Confirmed = r.Capacity is not null,
            LowerBound = r.Capacity is { } cap ? cap.LowerBound : r.SloHeldAtPeak,
            P99Ms = Figure.Single(r.Capacity?.ConfirmedP99Ms ?? r.QuantilesMs["p99"]),
            CpuUsPerRequest = r.Capacity is { ConfirmedCpuUsPerRequest: { } confirmedCpu } cc
                ? new Figure(confirmedCpu, Spread.Of(cc.Confirmations.Select(x => x.CpuUsPerRequest).OfType<double>().Append(confirmedCpu).ToList()) ?? Spread.Of(confirmedCpu))
                : servers.Count == 0 ? null : Figure.Single(servers.Sum(r.CpuUsPerRequest)),
            ErrorRate = r.ErrorRate,
        };
    }).ToList();
}
