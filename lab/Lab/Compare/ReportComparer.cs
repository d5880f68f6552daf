namespace Lab.Compare;

/// <summary>
/// Compares two reports cell by cell. A figure changed only when the change is beyond
/// <c>threshold</c> % of BASE's value <em>and</em> beyond the runs' spread by as much: the min–max
/// of BASE's repeats and of NEW's are more than <c>threshold</c> % apart at their nearest edges,
/// i.e. every NEW repetition differs from every BASE one by more than the threshold (with single
/// runs the spreads are the values themselves, so only the threshold decides). Merely
/// non-overlapping spreads were not enough: three quick repetitions of the same build twice
/// compared 17.5 % worse with spreads 1 % apart. A confirmed capacity's spread is that of its repetitions' confirmed
/// rates. A capacity that fell where NEW's figure is a lower bound (the SLO still held at its ramp's
/// top, or no hold of its search failed) is no difference. Between confirmed cells the p99 is shown
/// but not judged: each is measured at its own run's confirmed rate.
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
        if (Math.Abs(change) <= thresholdPercent) return new(metric, b, n, change, Judgement.NoDifference, $"within ±{MetricChange.N(thresholdPercent)} %");
        if (b.Spread.Overlaps(n.Spread)) return new(metric, b, n, change, Judgement.NoDifference, "inside the runs' spread");
        if (b.Spread.GapPercent(n.Spread) <= thresholdPercent)
            return new(metric, b, n, change, Judgement.NoDifference, $"the runs' spreads are within ±{MetricChange.N(thresholdPercent)} % of each other");
        var better = metric.HigherIsBetter() == change > 0;
        if (!better && metric == Metric.Capacity && newCell!.LowerBound)
            return new(metric, b, n, change, Judgement.NoDifference, "NEW's SLO held at its ramp's top: its capacity is a lower bound");
        return new(metric, b, n, change, better ? Judgement.Better : Judgement.Worse, better ? "better" : "worse");
    }
}
