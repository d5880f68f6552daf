using Tank.Ammo;
using System.Globalization;

namespace Crash.Rates;

/// <summary>
/// How each run's rate is chosen: with a bench report (--rate-from, or by default the published
/// one), <see cref="Share"/> × the confirmed capacity of the write cell for the run's architecture
/// and kind (a cluster run: the cluster's cell of as many nodes, else the single node's); without
/// one, or where the report has no confirmed figure, the fixed rate (--rate or its default).
/// </summary>
public sealed record RateRule(double Fixed, string FixedSource, BenchCapacities? Report = null, double Share = 0.5)
{
    public static RateRule Default { get; } = new(200, "default");

    /// <summary>How the report (or its absence) was chosen: "--rate-from", the published report's reason, or why the fixed rate stands.</summary>
    public string Origin { get; init; } = "";

    /// <summary>
    /// The user named the report (--rate-from): a rate from it that a run cannot plan is bad input.
    /// A report taken by default instead leaves such a run at the fixed rate, saying so, rather than
    /// failing a matrix nobody asked to run at that rate.
    /// </summary>
    public bool ReportNamed { get; init; }

    /// <summary>The line a matrix or cluster starts with: where every run's rate comes from.</summary>
    public string Describe() => Report is null
        ? Text($"rates: {Fixed}/s ({FixedSource}{(Origin.Length > 0 ? $": {Origin}" : "")}) for every run")
        : Text($"rates: from the bench report {Report.Name} ({Origin}): {Share} × the capacity it confirmed for each run's writes; {FixedSource} {Fixed}/s where it has no figure");

    /// <summary>The fixed rate for a run whose rate from a report taken by default cannot be planned (<paramref name="why"/>).</summary>
    public RunRate FixedInsteadOf(RunRate fromReport, string why) =>
        new(Fixed, Text($"{FixedSource} {Fixed}/s: {fromReport.Rate}/s ({fromReport.Source}) cannot be planned: {why}")) { Report = fromReport.Report };

    /// <summary>The bench scenario whose capacity a kind's writes are measured against.</summary>
    public static string WriteScenario(CrashKind kind) => kind switch
    {
        CrashKind.Author => Scenario.AuthorWrite.Name(),
        CrashKind.Item => Scenario.ItemWrite.Name(),
        CrashKind.Queue or CrashKind.LeasedQueue => Scenario.QueueWrite.Name(),
        _ => Scenario.KvPut.Name(),
    };

    /// <summary>
    /// The rate of a run on <paramref name="storage"/>; <paramref name="nodes"/> &gt; 1: through a
    /// cluster of that many nodes. <paramref name="sameWrites"/>: architectures whose writes are its
    /// writes (the bench measured only theirs), tried after its own cells.
    /// </summary>
    public RunRate For(string storage, CrashKind kind, int nodes = 0, IEnumerable<string>? sameWrites = null)
    {
        if (Report is null) return new RunRate(Fixed, FixedSource);
        var scenario = WriteScenario(kind);
        var cells = (nodes > 1 ? new[] { $"{storage} ×{nodes}", storage } : new[] { storage }).Concat(sameWrites ?? []).ToArray();
        foreach (var cell in cells)
        {
            if (Report.Confirmed(cell, scenario) is { } rps)
                return new RunRate(Math.Round(Share * rps, 1), Text($"{Share} × {rps} rps confirmed for {scenario} on {cell} in {Report.Name}")) { FromReport = true, Report = Report.Name };
        }
        return new RunRate(Fixed, Text($"{FixedSource} {Fixed}/s: {Report.Name} has no confirmed {scenario} on {string.Join(" or ", cells)}")) { Report = Report.Name };
    }

    private static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
