using System.Globalization;
using System.Text;

namespace Lab.Tools;

/// <summary>
/// The ab runs as a Markdown table (requests per second, mean and longest request, requests
/// without a 2xx answer, for reads and writes), then a line for every run ab gave up on; and
/// whether one did.
/// </summary>
public static class AbTable
{
    public static (string Markdown, bool Failed) Render(string title, IReadOnlyList<AbRow> rows)
    {
        var text = new StringBuilder(title).Append("\n\n");
        text.Append("| storage | read rps | read mean ms | read longest ms | read failed | write rps | write mean ms | write longest ms | write failed |\n");
        text.Append("|---|---|---|---|---|---|---|---|---|\n");
        var problems = new List<string>();
        foreach (var row in rows)
        {
            text.Append(CultureInfo.InvariantCulture, $"| {row.Storage} | {Cells(row.Read)} | {Cells(row.Write)} |\n");
            foreach (var (op, run) in (ReadOnlySpan<(string, ToolRun)>)[("read", row.Read), ("write", row.Write)])
            {
                if (run.ExitCode != 0 || !AbOutputParser.Parse(run.Output).Printed)
                    problems.Add($"{row.Storage} {op}: ab exited {run.ExitCode}: {AbOutputParser.LastLine(run.Output)}");
            }
        }
        if (problems.Count > 0) text.Append('\n').AppendJoin('\n', problems).Append('\n');
        return (text.ToString(), problems.Count > 0);
    }

    private static string Cells(ToolRun run)
    {
        var s = AbOutputParser.Parse(run.Output);
        return string.Join(" | ", Cell(s.RequestsPerSecond), Cell(s.MeanMs), Cell(s.LongestMs), Cell(s.Unsuccessful));
    }

    private static string Cell<T>(T? value) where T : struct, IFormattable =>
        value?.ToString(null, CultureInfo.InvariantCulture) ?? "—";
}
