using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Harness.Catalogue;
using Crash.Check;
using Crash.Queue;
using Tank.Runner;

namespace Crash.Matrix;

/// <summary>A matrix's summary: every run's result in one JSON array, and a table for people.</summary>
public static class MatrixSummary
{
    public static void WriteJson(IEnumerable<RunResult> results, string path)
    {
        var array = new JsonArray([.. results.Select(r => JsonSerializer.SerializeToNode(r, r.GetType(), RunResult.Json))]);
        File.WriteAllText(path, array.ToJsonString(RunResult.Json) + "\n");
    }

    /// <param name="notRun">Runs that could not start, each with why (their servers not whole after an earlier run).</param>
    public static string Markdown(IReadOnlyList<RunResult> results, StorageCatalogue catalogue, IReadOnlyList<string>? notRun = null)
    {
        var text = new StringBuilder();
        text.AppendLine("| architecture | write | fault | acknowledged | lost | oldest lost, age at the fault | duplicated | in doubt | stale | changed / unexpected | unverified | failed writes | API back after | promised (catalogue) | check |");
        text.AppendLine("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
        foreach (var r in results)
        {
            var queue = r as QueueResult;
            var keys = r as CrashResult;
            string[] cells =
            [
                r.Storage, r.Kind, r.Fault ?? "", N(r.Acked), N(r.Lost), r.OldestLostAgeMs is { } age ? Seconds(age) : "—", N(r.Duplicated),
                queue is null ? N(r.InDoubt) : $"{N(queue.InDoubtWrites)} writes ({N(queue.InDoubtWritesDelivered)} delivered) + {N(queue.ReadsInDoubt)} reads",
                keys?.CacheDisagreements is { } differ ? $"{N(r.Stale)} + {N(differ)} in the cache" : N(r.Stale),
                queue is null ? N(keys?.Changed ?? 0) : N(queue.Unexpected),
                queue is null ? N(keys?.Unverified ?? 0) : queue.DrainComplete ? "0" : "drain incomplete",
                N(r.Failed.Total),
                Back(r),
                r.Check is { } c ? $"{c.Promise}: {c.Promised}" + (c.WindowMs is { } window ? $" ({Seconds(window)})" : "") : "",
                r.Check is { } check ? CheckCell(check) : "",
            ];
            text.AppendLine("| " + string.Join(" | ", cells) + " |");
        }
        text.Append(Failovers(results));
        if (notRun is { Count: > 0 })
        {
            text.AppendLine().AppendLine($"**Not run** ({N(notRun.Count)}): `script/services up` could not make the servers whole before {(notRun.Count == 1 ? "it" : "them")} (a fault before left them broken, or they never started):").AppendLine();
            foreach (var line in notRun) text.AppendLine($"- {line}");
        }
        text.Append(Timelines(results));
        text.AppendLine();
        text.AppendLine("Stated durability (the catalogue, `GET /storages`):");
        text.AppendLine();
        foreach (var name in results.Select(r => r.Storage).Distinct())
        {
            if (catalogue.Find(name) is not { } entry) continue;
            var delivery = entry.Delivery is { } d ? $" Delivery: GET /read {d.Read}, leased read {d.Leased}." : "";
            var failover = entry.Replication is { } r ? $" Failover: {r.Mode} replication, {r.Failover}, loses {r.FailoverLoss}." : "";
            text.AppendLine($"- `{entry.Name}`: processCrash {entry.Durability.ProcessCrash}, powerLoss {entry.Durability.PowerLoss}.{failover} {entry.Durability.Text}{delivery}");
        }
        return text.ToString();
    }

    /// <summary>
    /// How each run came back from its fault under load: when p99 was under the SLO again and the
    /// 503s shed meanwhile, with the chart <see cref="ChartFile"/> of each (empty without timelines).
    /// </summary>
    public static string Timelines(IEnumerable<RunResult> results)
    {
        var rows = results.Where(r => r.Timeline is not null).ToList();
        if (rows.Count == 0) return "";
        var text = new StringBuilder();
        text.AppendLine();
        text.Append(string.Create(CultureInfo.InvariantCulture, $"Under load: p99 per second against the SLO ({rows[0].Timeline!.SloMs} ms), from the fault's end until it held {Timeline.RunTimeline.HeldSeconds} s in a row with no failed write; "));
        text.AppendLine("where the load alone kept p99 over the SLO before the fault, \"back to that level\" measures the return to the run's own p99 before it:");
        text.AppendLine();
        text.AppendLine("| run | fault | p99 back under the SLO after the fault | 503 from the fault until then | p99 before the fault | back to that level | chart |");
        text.AppendLine("|---|---|---:|---:|---:|---:|---|");
        foreach (var r in rows)
        {
            var t = r.Timeline!;
            var window = t.FaultEndedS is { } end && t.FaultStartedS is { } start ? string.Create(CultureInfo.InvariantCulture, $"{start:0.#}–{end:0.#} s") : "";
            var back = t.P99BackS is { } b ? string.Create(CultureInfo.InvariantCulture, $"{b:0.##} s") : NotWithinTheRun;
            var baseline = t.BaselineP99Ms is { } p ? string.Create(CultureInfo.InvariantCulture, $"{p:0.##} ms") : "—";
            var baselineBack = t.BaselineBackS is { } bb ? string.Create(CultureInfo.InvariantCulture, $"{bb:0.##} s") : t.BaselineP99Ms is null ? "—" : NotWithinTheRun;
            text.AppendLine($"| {r.Label} | {window} | {back} | {N(t.Shed503)} | {baseline} | {baselineBack} | [{ChartFile(r.Label)}]({ChartFile(r.Label)}) |");
        }
        return text.ToString();
    }

    /// <summary>
    /// The failover rows (and a replicated architecture's coordinated power loss) as distributions, one line per architecture, write kind and fault over its runs: how long
    /// writes failed (median and max of unavailable_s), what was lost, stale and duplicated in all of them, and when
    /// p99 was back under the SLO (median and max; runs where it was not within the run counted apart). Empty
    /// without failover rows.
    /// </summary>
    public static string Failovers(IEnumerable<RunResult> results)
    {
        var groups = results.Where(IsFailoverRow)
            .GroupBy(r => (r.Storage, r.Kind, Fault: r.Fault!)).ToList();
        if (groups.Count == 0) return "";
        var text = new StringBuilder();
        text.AppendLine();
        text.AppendLine("Failovers, over each row's runs: writes failing from the first failed write to the first acknowledged one after the last failure; " +
                        "p99 back under the SLO after the fault's end (timelines below); the machine's cores left idle while the fault lasted (median):");
        text.AppendLine();
        text.AppendLine("| architecture | write | fault | runs | writes failing, median | max | never back | lost (runs with loss) | stale | duplicated | p99 back, median | max | not within the run | idle cores, median | promised | check |");
        text.AppendLine("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
        foreach (var g in groups)
        {
            var runs = g.ToList();
            var unavailable = runs.Where(r => r.UnavailableS is not null).Select(r => r.UnavailableS!.Value).ToList();
            var back = runs.Where(r => r.Timeline?.P99BackS is not null).Select(r => r.Timeline!.P99BackS!.Value).ToList();
            var failed = runs.Count(r => r.Check is { Ok: false });
            var idle = runs.Where(r => r.IdleCoresDuringFault is not null).Select(r => r.IdleCoresDuringFault!.Value).ToList();
            string[] cells =
            [
                g.Key.Storage, g.Key.Kind, g.Key.Fault, N(runs.Count),
                SecondsOrDash(Median(unavailable)), SecondsOrDash(unavailable.Count > 0 ? unavailable.Max() : null), N(runs.Count - unavailable.Count),
                $"{N(runs.Sum(r => r.Lost))} ({N(runs.Count(r => r.Lost > 0))} of {N(runs.Count)})", N(runs.Sum(r => r.Stale)), N(runs.Sum(r => r.Duplicated)),
                SecondsOrDash(Median(back)), SecondsOrDash(back.Count > 0 ? back.Max() : null), N(runs.Count(r => r.Timeline is not null && r.Timeline.P99BackS is null)),
                Median(idle) is { } cores ? string.Create(CultureInfo.InvariantCulture, $"{cores:0.##}") : "—",
                runs[0].Check is { } c ? $"{c.Promise}: {c.Promised}" : "",
                failed == 0 ? "ok" : $"**{N(failed)} of {N(runs.Count)} failed**",
            ];
            text.AppendLine("| " + string.Join(" | ", cells) + " |");
        }
        return text.ToString();
    }

    /// <summary>A failover run, or a power loss of every node of a replicated architecture at once: one of a row's runs.</summary>
    public static bool IsFailoverRow(RunResult result) => result.Fault is { } f && Faults.Find(f) is { } fault
        && (fault.Promise == Promise.Failover || (fault.Promise == Promise.PowerLoss && result.Replicated));

    private static double? Median(IReadOnlyList<double> values) => values.Count == 0 ? null : Harness.Statistics.Median(values);

    private static string SecondsOrDash(double? s) => s is { } v ? string.Create(CultureInfo.InvariantCulture, $"{v:0.##} s") : "—";

    /// <summary>What a run that ended before p99 held under the limit for the whole window shows: not a shorter recovery, none measured.</summary>
    public const string NotWithinTheRun = "not within the run";

    /// <summary>The chart's file name beside the run's JSON ("… primary-kill #2" → "…-primary-kill-2.svg": no '#' in a link).</summary>
    public static string ChartFile(string label) => label.Replace(" #", "-", StringComparison.Ordinal).Replace(' ', '-') + ".svg";

    /// <summary>
    /// The problems in bold (the row fails); else whether the loss could not be checked and what the promise
    /// allowed (the row passes, its losses shown); else ok.
    /// </summary>
    public static string CheckCell(RowCheck check)
    {
        if (!check.Ok) return "**" + string.Join("; ", check.Problems) + "**";
        string[] said = [.. check.NotChecked is { } why ? [$"not checked: {why}"] : Array.Empty<string>(), .. check.Notes];
        return said.Length > 0 ? string.Join("; ", said) : "ok";
    }

    /// <summary>Milliseconds as seconds for the table, e.g. 34.21 s, 1 s.</summary>
    private static string Seconds(long ms) => string.Create(CultureInfo.InvariantCulture, $"{ms / 1000.0:0.##} s");

    private static string N(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Back(RunResult r) =>
        r.RecoveryS is { } recovery ? string.Create(CultureInfo.InvariantCulture, $"{Math.Round(recovery, 2)} s")
        : r.ReadBackReadyS is { } ready && r.FaultStartedS is { } fault ? string.Create(CultureInfo.InvariantCulture, $"≤ {Math.Round(ready - fault, 2)} s (after the writes)")
        : "never";
}
