using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Crash.Catalogue;
using Crash.Queue;

namespace Crash.Matrix;

/// <summary>A matrix's summary: every run's result in one JSON array, and a table for people.</summary>
public static class MatrixSummary
{
    public static void WriteJson(IEnumerable<RunResult> results, string path)
    {
        var array = new JsonArray([.. results.Select(r => JsonSerializer.SerializeToNode(r, r.GetType(), RunResult.Json))]);
        File.WriteAllText(path, array.ToJsonString(RunResult.Json) + "\n");
    }

    public static string Markdown(IReadOnlyList<RunResult> results, StorageCatalogue catalogue)
    {
        var text = new StringBuilder();
        text.AppendLine("| architecture | write | fault | acknowledged | lost | duplicated | in doubt | stale | changed / unexpected | unverified | failed writes | API back after | promised (catalogue) | check |");
        text.AppendLine("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
        foreach (var r in results)
        {
            var queue = r as QueueResult;
            var keys = r as CrashResult;
            string[] cells =
            [
                r.Storage, r.Kind, r.Fault ?? "", N(r.Acked), N(r.Lost), N(r.Duplicated),
                queue is null ? N(r.InDoubt) : $"{N(queue.InDoubtWrites)} writes ({N(queue.InDoubtWritesDelivered)} delivered) + {N(queue.ReadsInDoubt)} reads",
                keys?.CacheDisagreements is { } differ ? $"{N(r.Stale)} + {N(differ)} in the cache" : N(r.Stale),
                queue is null ? N(keys?.Changed ?? 0) : N(queue.Unexpected),
                queue is null ? N(keys?.Unverified ?? 0) : queue.DrainComplete ? "0" : "drain incomplete",
                N(r.Failed.Total),
                Back(r),
                r.Check is { } c ? $"{c.Promise}: {c.Promised}" : "",
                r.Check is null ? "" : r.Check.Ok ? "ok" : "**" + string.Join("; ", r.Check.Problems) + "**",
            ];
            text.AppendLine("| " + string.Join(" | ", cells) + " |");
        }
        text.AppendLine();
        text.AppendLine("Stated durability (the catalogue, `GET /storages`):");
        text.AppendLine();
        foreach (var name in results.Select(r => r.Storage).Distinct())
        {
            if (catalogue.Find(name) is not { } entry) continue;
            var delivery = entry.Delivery is { } d ? $" Delivery: {d}." : "";
            text.AppendLine($"- `{entry.Name}`: processCrash {entry.Durability.ProcessCrash}, powerLoss {entry.Durability.PowerLoss}. {entry.Durability.Text}{delivery}");
        }
        return text.ToString();
    }

    private static string N(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Back(RunResult r) =>
        r.RecoveryS is { } recovery ? string.Create(CultureInfo.InvariantCulture, $"{Math.Round(recovery, 2)} s")
        : r.ReadBackReadyS is { } ready && r.FaultStartedS is { } fault ? string.Create(CultureInfo.InvariantCulture, $"≤ {Math.Round(ready - fault, 2)} s (after the writes)")
        : "never";
}
