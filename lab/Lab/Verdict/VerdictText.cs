using System.Globalization;
using System.Text;
using Lab.Compare;

namespace Lab.Verdicts;

/// <summary>The verdict as a terminal table and as a Markdown section (the report's "Verdict").</summary>
public static class VerdictText
{
    public static readonly string[] Columns = ["architecture", "capacity @ SLO", "headroom", "p99 ms", "CPU µs/request", "durability", "verdict"];

    public static string Question(VerdictTarget t) =>
        $"Which architectures hold {VerdictJudge.N(t.Rate)} requests/s at p99 ≤ {VerdictJudge.N(t.SloMs)} ms" +
        $"{(t.Scenario is { } s ? $" in {s}" : " in every scenario measured")}" +
        $"{(t.Durability == DurabilityClass.None ? "" : $" and lose no acknowledged write on a {t.Durability.Name()}")}" +
        $"{(t.MaxUnavailableS is { } max ? $", with writes back within {Unavailability.S(max)}" : "")}?";

    public static List<string[]> Rows(VerdictResult result) =>
        result.Qualified.Concat(result.Others).Select((c, i) => new[]
        {
            c.Storage,
            c.UnmeasuredScenarios == result.Scenarios.Count ? "—" : c.NoneConfirmed ? "none confirmed" : (c.LowerBound ? "≥ " : c.NotEstablished ? "≤ " : "") + VerdictJudge.N(c.Capacity),
            c.NoneConfirmed || c.UnmeasuredScenarios == result.Scenarios.Count ? "—" : (c.NotEstablished ? "≤ " : "") + c.Headroom.ToString("0.00", CultureInfo.InvariantCulture) + "×",
            c.P99Ms is { } p ? VerdictJudge.N(p) : "—",
            c.CpuUsPerRequest is { } cpu ? VerdictJudge.N(cpu) : "—",
            c.Durability,
            c.Qualifies ? $"qualifies (#{i + 1})" : string.Join("; ", c.Failures),
        }).ToList();

    /// <summary>The answer in one or two sentences: who qualifies, or plainly that nobody does and who came closest, and why it failed.</summary>
    public static string Answer(VerdictResult result)
    {
        if (result.Qualified.Count > 0)
            return $"Qualifies: {string.Join(", ", result.Qualified.Select(c => c.Storage))}{(result.Qualified.Count > 1 ? " (most headroom first, then least CPU per request)" : "")}.";
        if (result.Closest is not { } closest) return "No architecture qualifies: the report holds no run for this target.";
        var share = closest.NoneConfirmed ? "nothing confirmed" : $"{(closest.NotEstablished ? "at most " : "")}{closest.Headroom.ToString("0.00", CultureInfo.InvariantCulture)}× the rate";
        return $"No architecture qualifies. Closest: {closest.Storage} ({share}), which failed because {string.Join("; ", closest.Failures)}.";
    }

    public static string Terminal(VerdictResult result, string reportPath)
    {
        var text = new StringBuilder();
        text.AppendLine(Question(result.Target)).AppendLine($"(from {reportPath})").AppendLine();
        text.Append(TextTable.Render(Columns, Rows(result))).AppendLine();
        text.AppendLine(Answer(result));
        return text.ToString();
    }

    public static string Markdown(VerdictResult result, string note)
    {
        var md = new StringBuilder();
        md.AppendLine(Question(result.Target)).AppendLine();
        md.AppendLine("| " + string.Join(" | ", Columns) + " |");
        md.AppendLine("|" + string.Concat(Columns.Select(_ => "---|")));
        foreach (var row in Rows(result)) md.AppendLine("| " + string.Join(" | ", row.Select(c => c.Replace("|", "\\|"))) + " |");
        md.AppendLine().AppendLine($"**{Answer(result)}**{(note.Length > 0 ? " " + note : "")}");
        return md.ToString();
    }
}
