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
            // A repeated cell's capacity is the median of its repetitions with its interval, at the
            // median repetition's confirmation p99.
            Capacity = r.Capacity is { } c
                ? new Figure(c.ConfirmedRps, ReportFileReader.Widen(c.Interval is { } i ? new Spread(i.Low, i.High) : c.ConfirmedSpread is { } s ? new Spread(s.Min, s.Max) : null, c.ConfirmedRps))
                : Figure.Single(r.MaxSustainedRps),
            Unstable = r.Capacity?.Unstable ?? false,
            UnstableBecause = r.Capacity?.UnstableBecause ?? [],
            Confirmed = r.Capacity is not null,
            LowerBound = r.Capacity is { } cap ? cap.LowerBound : r.SloHeldAtPeak,
            P99Ms = Figure.Single(r.Capacity?.ConfirmedP99Ms ?? r.QuantilesMs["p99"]),
            CpuUsPerRequest = r.Capacity is { ConfirmedCpuUsPerRequest: { } confirmedCpu } cc
                ? new Figure(confirmedCpu, Spread.Of(cc.Confirmations.Select(x => x.CpuUsPerRequest).OfType<double>().Append(confirmedCpu).ToList()) ?? Spread.Of(confirmedCpu))
                : servers.Count == 0 ? null : Figure.Single(servers.Sum(r.CpuUsPerRequest)),
            ErrorRate = r.ErrorRate,
            Repetitions = r.Capacity?.Confirmations.Count ?? 0,
            HeldRepetitions = r.Capacity?.Confirmations.Count(x => x.Confirmed) ?? 0,
        };
    }).ToList();
}
