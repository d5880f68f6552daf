using System.Globalization;
using System.Text;

namespace Lab.Tools;

/// <summary>
/// The siege matrix as a Markdown table, one row per run, beside the original PHP study's figure,
/// with a note wherever a figure needs one; and whether any run failed (failed or unsuccessful
/// transactions, or no statistics at all).
/// </summary>
public static class SiegeTable
{
    /// <summary>
    /// The original measured about 6 transactions/s for every backend and concurrency (its PHP-FPM
    /// front end with 5 workers was the bottleneck). Only that summary figure is known, so every
    /// row gets it rather than per-cell figures.
    /// </summary>
    public const string OriginalRate = "≈6";

    /// <summary>A read this long is most likely siege's 30 s socket timeout on an answer without Content-Length, not the service.</summary>
    public const decimal StallSeconds = 29;

    public static (string Markdown, bool Failed) Render(string about, IReadOnlyList<SiegeRun> runs)
    {
        var text = new StringBuilder(about);
        var failed = false;
        text.Append("| queue | op | concurrency | transactions | trans/s | availability % | failed | longest s | elapsed s | depth start → end | original trans/s | notes |\n");
        text.Append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        foreach (var run in runs)
        {
            var (notes, runFailed) = Notes(run);
            failed |= runFailed;
            var s = run.Statistics;
            text.Append(CultureInfo.InvariantCulture,
                $"| {run.Queue ?? "-"} | {run.Op ?? "-"} | {Cell(run.Concurrency)} | {Cell(s.Transactions)} | {Cell(s.Rate)} | {Cell(s.Availability)} | {Cell(s.Failed)} " +
                $"| {Cell(s.LongestSeconds)} | {Cell(s.ElapsedSeconds)} | {Depth(run.DepthBefore)} → {Depth(run.DepthAfter)} | {OriginalRate} | {string.Join("; ", notes)} |\n");
        }
        text.Append('\n');
        text.Append("trans/s, availability, longest and elapsed are siege's own figures (Transaction rate, Availability, Longest transaction, Elapsed time).\n");
        text.Append("siege counts every answer below 400 as a success: 201 (written) and 204 (the queue was empty) alike.\n");
        text.Append("depth: GET /depth/{queue} right before and after the run (? = no answer).\n");
        text.Append("original: the PHP study measured about 6 transactions/s for every backend and concurrency (PHP-FPM with 5 workers was its bottleneck); only that summary figure is known.\n");
        return (text.ToString(), failed);
    }

    /// <summary>What a row needs said about it, and whether the run counts as failed.</summary>
    public static (IReadOnlyList<string> Notes, bool Failed) Notes(SiegeRun run)
    {
        var s = run.Statistics;
        var notes = new List<string>();
        var failed = false;
        if (s.Aborted) notes.Add("siege aborted: too many socket failures (its limit is 1024)");
        if (!s.Printed)
        {
            notes.Add($"siege printed no statistics (exit {Cell(run.ExitCode)}): see raw/{run.File}");
            failed = true;
        }
        else
        {
            if (s.Failed != 0) failed = true;
            // siege 4.0.7 counts a 404 as a transaction that is neither failed nor successful (seen on an unknown queue).
            if (s.Successful is { } ok && ok < s.Transactions)
            {
                notes.Add($"only {ok} of the {s.Transactions} transactions were successful: the others were answered 400 or above");
                failed = true;
            }
            switch (run.ExitCode)
            {
                case 0 or null: break;
                case ToolRun.Killed: notes.Add("siege hung after its run and was killed; these are the statistics it printed"); break;
                default: notes.Add($"siege exited {run.ExitCode}"); break;
            }
        }
        if (run.Op == "read" && run.DepthAfter == 0 && s.Transactions is > 0)
            notes.Add("queue empty at the end: the reads after it emptied were answered 204");
        if (run.Op == "read" && s.LongestSeconds >= StallSeconds)
            notes.Add($"longest ≥ {StallSeconds} s: likely siege's socket timeout on an answer without Content-Length (a 204), not the service");
        return (notes, failed);
    }

    private static string Cell<T>(T? value) where T : struct, IFormattable =>
        value?.ToString(null, CultureInfo.InvariantCulture) ?? "—";

    private static string Depth(long? depth) => depth?.ToString(CultureInfo.InvariantCulture) ?? "?";
}
