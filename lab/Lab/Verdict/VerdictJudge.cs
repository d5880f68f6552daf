using Lab.Compare;
using Tank.Ammo;

namespace Lab.Verdicts;

/// <summary>
/// Which architectures meet a target. An architecture holds the rate when its capacity at the SLO
/// (confirmed capacity, else max rps @ SLO) is at least the rate in every scenario judged, a
/// capacity most of its repetitions held through a confirmation (a report of the bench's repetitions
/// says how many did); with a durability class, the crash test must hold rows of that class for it, and in none of them may an
/// acknowledged write be lost, stale, changed or unverified; with a bound on unavailability (failover), in none of them may
/// writes have failed for longer, or never come back. No rows is "not measured", which does not qualify.
/// </summary>
public static class VerdictJudge
{
    public static VerdictResult Judge(IReadOnlyList<CellFigures> cells, VerdictTarget target, IReadOnlyList<CrashRow>? crash)
    {
        var scenarios = target.Scenario is { } only ? [only] : cells.Select(c => c.Scenario).Distinct().Order(StringComparer.Ordinal).ToList();
        // A named scenario judges the architectures run in it; otherwise every architecture in the report.
        var candidates = cells.Where(c => target.Scenario is null || c.Scenario == target.Scenario).Select(c => c.Storage).Distinct().Select(storage =>
        {
            var failures = new List<string>();
            var mine = scenarios.Select(s => (Scenario: s, Cell: cells.FirstOrDefault(c => c.Storage == storage && c.Scenario == s))).ToList();
            foreach (var (scenario, _) in mine.Where(m => m.Cell is null)) failures.Add($"{scenario} not measured");
            var measured = mine.Where(m => m.Cell is not null).Select(m => (m.Scenario, Cell: m.Cell!)).ToList();
            foreach (var (scenario, cell) in measured.Where(m => m.Cell.Capacity.Value < target.Rate))
                failures.Add(cell.LowerBound
                    ? $"{scenario}: held p99 ≤ {N(target.SloMs)} ms up to its ramp's top, {N(cell.Capacity.Value)} rps, below {N(target.Rate)}: not measured at the rate"
                    : NoneConfirmed(cell)
                        ? $"{scenario}: no rate confirmed at p99 ≤ {N(target.SloMs)} ms"
                        : $"{scenario}: holds {N(cell.Capacity.Value)} rps at p99 ≤ {N(target.SloMs)} ms, below {N(target.Rate)}");
            // A capacity most repetitions did not hold through a confirmation is a bound, not a rate the stack holds.
            foreach (var (scenario, cell) in measured.Where(m => m.Cell.Capacity.Value >= target.Rate && !m.Cell.MostlyHeld))
                failures.Add($"{scenario}: a confirmation held in only {cell.HeldRepetitions} of {cell.Repetitions} repetitions: {N(cell.Capacity.Value)} rps at p99 ≤ {N(target.SloMs)} ms is not established");
            var limiting = measured.Count == 0 ? default : measured.MinBy(m => m.Cell.Capacity.Value);
            var capacity = limiting.Cell?.Capacity.Value ?? 0;
            var durability = Durability(storage, target, crash, failures);
            return new Candidate
            {
                Storage = storage,
                Capacity = capacity,
                Headroom = target.Rate > 0 ? capacity / target.Rate : 0,
                LowerBound = limiting.Cell?.LowerBound ?? false,
                // Nothing confirmed: no hold's p99 stands for the cell (the ramp's passes the knee on purpose).
                NoneConfirmed = limiting.Cell is { } l && NoneConfirmed(l),
                NotEstablished = measured.Any(m => !m.Cell.MostlyHeld && !NoneConfirmed(m.Cell)),
                P99Ms = limiting.Cell is { } lc && !NoneConfirmed(lc) ? lc.P99Ms.Value : null,
                CpuUsPerRequest = limiting.Cell?.CpuUsPerRequest?.Value,
                Durability = durability,
                Failures = failures,
                UnmeasuredScenarios = scenarios.Count - measured.Count,
            };
        }).ToList();
        var ranked = candidates
            .OrderBy(c => c.Qualifies ? 0 : 1)
            .ThenBy(c => c.UnmeasuredScenarios) // closest: measured where asked first, then a rate established, then the most headroom
            .ThenBy(c => c.NotEstablished ? 1 : 0)
            .ThenByDescending(c => c.Headroom)
            .ThenBy(c => c.CpuUsPerRequest ?? double.MaxValue)
            .ThenBy(c => c.Failures.Count)
            .ThenBy(c => c.Storage, StringComparer.Ordinal)
            .ToList();
        return new VerdictResult(target, ranked.Where(c => c.Qualifies).ToList(), ranked.Where(c => !c.Qualifies).ToList(), scenarios);
    }

    /// <summary>A searched cell whose repetitions' median confirmed nothing (summary.json's confirmed_rps 0).</summary>
    public static bool NoneConfirmed(CellFigures cell) => cell.Confirmed && cell.Capacity.Value <= 0;

    private static string Durability(string storage, VerdictTarget target, IReadOnlyList<CrashRow>? crash, List<string> failures)
    {
        var durability = target.Durability;
        if (durability == DurabilityClass.None) return "not required";
        var rows = (crash ?? []).Where(r => r.Storage == storage && durability.Covers(r.Fault)).ToList();
        if (rows.Count == 0)
        {
            failures.Add($"{durability.Name()}: not measured (the crash results hold no {durability.Name()} run for it)");
            return "not measured";
        }
        var bad = rows.Where(r => !r.Clean).ToList();
        failures.AddRange(rows.GroupBy(r => (r.Kind, r.Fault)).SelectMany(g => CrashRow.Problems(g.ToList())).Select(p => $"{durability.Name()}: {p}"));
        if (target.MaxUnavailableS is { } maxS) failures.AddRange(Unavailability.Over(rows, maxS).Select(p => $"{durability.Name()}: {p}"));
        var loss = bad.Count == 0 ? $"no loss ({rows.Count} run{(rows.Count == 1 ? "" : "s")})" : $"loss in {bad.Count} of {rows.Count}";
        // How long writes failed is what a failover costs besides loss; a lone server's crash is judged on loss alone.
        return durability == DurabilityClass.Failover ? $"{loss}, {Unavailability.Cell(rows)}" : loss;
    }

    public static string N(double value) => MetricChange.N(value);
}
