using System.Net;
using System.Text;
using Lab.Compare;
using Lab.Report;
using Tank.Ammo;

namespace Lab.Verdicts;

/// <summary>
/// The report's "Verdict" section, the report's first: the report has no one target to judge
/// against, so it asks, per scenario, which architectures hold a round rate (1, 2 or 5 × 10ⁿ
/// requests/s) at or below half the best capacity established in that scenario (a confirmation held in
/// most repetitions), at the report's SLO:
/// a rate the best one holds with at least 2× headroom, so the ranking says who else comes near
/// it, and a round number a reader can carry away. Durability is not judged here (the crash
/// results are not in a bench run); any other target is a <c>lab verdict</c> away.
/// </summary>
public static class VerdictSection
{
    public const double ShareOfBest = 0.5;

    public const string Note = "Target: the round rate (1, 2 or 5 × 10ⁿ requests/s) at or below half the best capacity established in the scenario (a confirmation held in most repetitions), at the report's SLO; durability not judged here. " +
                               "Ask your own question: `lab verdict <this report folder> --slo-ms S --rate R [--workload SCENARIO] [--durability crash|power-loss|failover [--max-unavailable-s N] --crash <crashtest dir>]`.";

    /// <summary>The largest of 1, 2, 5 × 10ⁿ not above <paramref name="rate"/> (at least 1).</summary>
    public static double RoundRate(double rate)
    {
        if (rate < 1) return 1;
        var power = Math.Pow(10, Math.Floor(Math.Log10(rate)));
        return new[] { 5, 2, 1 }.Select(m => m * power).First(r => r <= rate * (1 + 1e-12));
    }

    /// <summary>One verdict per scenario in which some architecture held the SLO.</summary>
    public static IReadOnlyList<VerdictResult> Defaults(IReadOnlyList<RunAnalysis> runs, double sloMs)
    {
        var cells = RunCells.From(runs);
        return BestPerScenario(cells).Where(s => s.Best > 0)
            .Select(s => VerdictJudge.Judge(cells, new VerdictTarget(sloMs, RoundRate(s.Best * ShareOfBest), DurabilityClass.None, s.Scenario), null))
            .ToList();
    }

    /// <summary>
    /// The scenarios in which no architecture held the SLO (nothing confirmed, no ramp second held):
    /// no rate to judge against, said in the section rather than left out of it.
    /// </summary>
    public static string? Unjudged(IReadOnlyList<RunAnalysis> runs, double sloMs)
    {
        var none = BestPerScenario(RunCells.From(runs)).Where(s => s.Best <= 0).Select(s => s.Scenario).ToList();
        return none.Count == 0 ? null
            : $"No architecture held p99 ≤ {VerdictJudge.N(sloMs)} ms in {string.Join(", ", none)}, so there is no rate to judge against there.";
    }

    // The best capacity established (held through a confirmation in most repetitions): a bound is no rate to halve.
    private static IEnumerable<(string Scenario, double Best)> BestPerScenario(IReadOnlyList<CellFigures> cells) =>
        cells.Select(c => c.Scenario).Distinct().Order(StringComparer.Ordinal)
            .Select(s => (s, cells.Where(c => c.Scenario == s && c.MostlyHeld).Select(c => c.Capacity.Value).DefaultIfEmpty(0).Max()));

    public static string Markdown(IReadOnlyList<RunAnalysis> runs, double sloMs)
    {
        var md = new StringBuilder("## Verdict\n\n");
        var verdicts = Defaults(runs, sloMs);
        if (verdicts.Count == 0) return md.AppendLine("No architecture held the SLO in any scenario, so there is no rate to judge against.").AppendLine().ToString();
        foreach (var verdict in verdicts) md.Append(VerdictText.Markdown(verdict, "")).AppendLine();
        if (Unjudged(runs, sloMs) is { } unjudged) md.AppendLine(unjudged).AppendLine();
        return md.AppendLine(Note).AppendLine().ToString();
    }

    public static string Html(IReadOnlyList<RunAnalysis> runs, double sloMs)
    {
        var html = new StringBuilder("<h2>Verdict</h2>\n");
        var verdicts = Defaults(runs, sloMs);
        if (verdicts.Count == 0) return html.AppendLine("<p>No architecture held the SLO in any scenario, so there is no rate to judge against.</p>").ToString();
        foreach (var verdict in verdicts)
        {
            html.AppendLine($"<p>{Enc(VerdictText.Question(verdict.Target))}</p>");
            html.Append("<table><tr>").Append(string.Concat(VerdictText.Columns.Select(c => $"<th>{Enc(c)}</th>"))).AppendLine("</tr>");
            foreach (var row in VerdictText.Rows(verdict)) html.Append("<tr>").Append(string.Concat(row.Select(c => $"<td>{Enc(c)}</td>"))).AppendLine("</tr>");
            html.AppendLine("</table>").AppendLine($"<p><strong>{Enc(VerdictText.Answer(verdict))}</strong></p>");
        }
        if (Unjudged(runs, sloMs) is { } unjudged) html.AppendLine($"<p>{Enc(unjudged)}</p>");
        return html.AppendLine($"<p>{Enc(Note).Replace("`", "")}</p>").ToString();
    }

    private static string Enc(string text) => WebUtility.HtmlEncode(text);
}
