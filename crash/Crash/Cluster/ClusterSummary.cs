using System.Globalization;
using System.Text;
using Harness.Catalogue;

namespace Crash.Cluster;

/// <summary>The table of a cluster crash test, for people (summary.json has every field).</summary>
public static class ClusterSummary
{
    public static string Markdown(IReadOnlyList<CrashResult> results, StorageCatalogue catalogue)
    {
        var text = new StringBuilder();
        text.AppendLine("| architecture | fault | acknowledged | lost | stale | in doubt | struck node's keys during the outage: 503 / acked / other / no answer | other keys during the outage: failed of | API back after | check |");
        text.AppendLine("|---|---|---:|---:|---:|---:|---|---|---:|---|");
        foreach (var r in results)
        {
            var s = r.Cluster!;
            string[] cells =
            [
                r.Storage, r.Fault ?? "", N(r.Acked), N(r.Lost), N(r.Stale), N(r.InDoubt),
                $"{N(s.Victim503)} / {N(s.VictimAcked)} / {N(s.VictimOtherStatus)} / {N(s.VictimNoAnswer)} of {N(s.VictimWrites)}",
                $"{N(s.OthersFailed)} of {N(s.OthersWrites)}",
                r.RecoveryS is { } back ? string.Create(CultureInfo.InvariantCulture, $"{Math.Round(back, 2)} s") : "never",
                r.Check is null ? "" : r.Check.Ok ? "ok" : "**" + string.Join("; ", r.Check.Problems) + "**",
            ];
            text.AppendLine("| " + string.Join(" | ", cells) + " |");
        }
        text.Append(Matrix.MatrixSummary.Timelines(results));
        text.AppendLine();
        text.AppendLine("Writes go to node 0; the fault strikes node 1 (kill -9 and a restart, or SIGSTOP and SIGCONT); the outage runs from");
        text.AppendLine("the fault until node 1 answers again (or is continued). A key's owner is the service's rendezvous hashing over the");
        text.AppendLine("nodes of `/v0/status`. \"API back after\" is when the struck node's keys were acknowledged again.");
        text.AppendLine();
        foreach (var name in results.Select(r => r.Storage).Distinct())
        {
            if (catalogue.Find(name) is { } entry) text.AppendLine($"- `{entry.Name}`: processCrash {entry.Durability.ProcessCrash}. {entry.Durability.Text}");
        }
        return text.ToString();
    }

    private static string N(long value) => value.ToString(CultureInfo.InvariantCulture);
}
