namespace Lab.Compare;

/// <summary>
/// Compares two reports cell by cell. A figure changed only when its two intervals separate (the
/// bench's interval of each cell's median capacity; a repeated figure's min–max otherwise; a single
/// run's value itself) <em>and</em> the change is beyond <c>threshold</c> % of BASE's value. When
/// they do not separate and either run labelled the cell unstable (its repetitions spread beyond the
/// profile's share of their median), the cell is reported as unstable with the causes measured,
/// never as "no difference": noise that wide hides a change; so is a cell whose figure in either run is
/// a bound (most of its repetitions held no confirmation) overlapping the other's. A capacity that fell where NEW's
/// figure is a lower bound (every step held) is no difference. Between cells with repetitions the
/// p99 is shown but not judged: each is measured at its own run's capacity.
/// </summary>
public static class ReportComparer
{
    public static IReadOnlyList<CellComparison> Compare(ReportFile baseReport, ReportFile newReport, double thresholdPercent)
    {
        var before = baseReport.Cells.DistinctBy(c => c.Key).ToDictionary(c => c.Key);
        var after = newReport.Cells.DistinctBy(c => c.Key).ToDictionary(c => c.Key);
        return before.Keys.Union(after.Keys).Order(StringComparer.Ordinal).Select(key =>
        {
            var b = before.GetValueOrDefault(key);
            var n = after.GetValueOrDefault(key);
            var changes = Enum.GetValues<Metric>().Select(m => Judge(m, b, n, thresholdPercent)).ToList();
            var any = b ?? n!;
            return new CellComparison(any.Storage, any.Scenario, b, n, changes);
        }).ToList();
    }

    public static MetricChange Judge(Metric metric, CellFigures? baseCell, CellFigures? newCell, double thresholdPercent)
    {
        var b = baseCell is null ? null : metric.Of(baseCell);
        var n = newCell is null ? null : metric.Of(newCell);
        if (b is null || n is null)
            return new(metric, b, n, null, Judgement.NotMeasured, baseCell is null ? "only in NEW" : newCell is null ? "only in BASE" : "not recorded in one report");
        // Each run's p99 at its own confirmed rate is within the SLO by construction; a latency
        // regression shows as less capacity at the SLO, so that p99 is shown, not judged.
        if (metric == Metric.P99 && baseCell!.Confirmed && newCell!.Confirmed)
            return new(metric, b, n, null, Judgement.NoDifference, "p99 at each run's own confirmed rate: shown, not judged");
        var change = b.Value == 0 ? (n.Value == 0 ? 0 : double.PositiveInfinity * Math.Sign(n.Value)) : (n.Value - b.Value) / Math.Abs(b.Value) * 100;
        var separated = !b.Spread.Overlaps(n.Spread) && Math.Abs(change) > thresholdPercent;
        // A bound (most repetitions held no confirmation) overlapping the other run's figure says nothing of the difference.
        if (!separated && metric == Metric.Capacity && (NotEstablished(baseCell!) || NotEstablished(newCell!)))
            return new(metric, b, n, change, Judgement.Unstable, NotEstablishedWhy(baseCell!, newCell!));
        if (!separated && metric == Metric.Capacity && (baseCell!.Unstable || newCell!.Unstable))
            return new(metric, b, n, change, Judgement.Unstable, Unstable(baseCell, newCell!));
        if (Math.Abs(change) <= thresholdPercent) return new(metric, b, n, change, Judgement.NoDifference, $"within ±{MetricChange.N(thresholdPercent)} %");
        if (!separated) return new(metric, b, n, change, Judgement.NoDifference, "the runs' intervals overlap");
        var better = metric.HigherIsBetter() == change > 0;
        if (!better && metric == Metric.Capacity && newCell!.LowerBound)
            return new(metric, b, n, change, Judgement.NoDifference, "NEW's SLO held at its ramp's top: its capacity is a lower bound");
        return new(metric, b, n, change, better ? Judgement.Better : Judgement.Worse, better ? "better" : "worse");
    }

    /// <summary>A capacity most of whose repetitions held no confirmation: its figure is a bound ("≤"), not a rate (an errors-only 0 aside).</summary>
    private static bool NotEstablished(CellFigures cell) => !cell.MostlyHeld && cell.Capacity.Value > 0;

    private static string NotEstablishedWhy(CellFigures baseCell, CellFigures newCell) =>
        "not established: " + string.Join("; ", new[] { ("BASE", baseCell), ("NEW", newCell) }.Where(c => NotEstablished(c.Item2))
            .Select(c => $"{c.Item1} held a confirmation in only {c.Item2.HeldRepetitions} of {c.Item2.Repetitions} repetitions, so its figure is a bound"));

    private static string Unstable(CellFigures baseCell, CellFigures newCell) =>
        "unstable: " + string.Join("; ", new[] { ("BASE", baseCell), ("NEW", newCell) }.Where(c => c.Item2.Unstable)
            .Select(c => $"{c.Item1} {string.Join(", ", c.Item2.UnstableBecause.DefaultIfEmpty("spread beyond the profile's share"))}"));
}
