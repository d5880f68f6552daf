using Tank.Ammo;
using System.Globalization;

namespace Crash.Rates;

/// <summary>
/// How each run's rate is chosen: with a bench report (--rate-from), <see cref="Share"/> × the
/// confirmed capacity of the write cell for the run's architecture and kind (a cluster run: the
/// cluster's cell of as many nodes, else the single node's); without one, or where the report has
/// no confirmed figure, the fixed rate (--rate or its default).
/// </summary>
public sealed record RateRule(double Fixed, string FixedSource, BenchCapacities? Report = null, double Share = 0.5)
{
    public static RateRule Default { get; } = new(200, "default");

    /// <summary>The bench scenario whose capacity a kind's writes are measured against.</summary>
    public static string WriteScenario(CrashKind kind) => kind switch
    {
        CrashKind.Author => Scenario.AuthorWrite.Name(),
        CrashKind.Item => Scenario.ItemWrite.Name(),
        CrashKind.Queue => Scenario.QueueWrite.Name(),
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
                return new RunRate(Math.Round(Share * rps, 1), Text($"{Share} × {rps} rps confirmed for {scenario} on {cell} in {Report.Directory}")) { FromReport = true };
        }
        return new RunRate(Fixed, Text($"{FixedSource} {Fixed}/s: {Report.Directory} has no confirmed {scenario} on {string.Join(" or ", cells)}"));
    }

    private static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
