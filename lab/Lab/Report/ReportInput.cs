using System.Text.Json;
using Harness.CommandLine;
using Tank.Ammo;
using Tank.Runner;

namespace Lab.Report;

/// <summary>
/// A run directory as script/bench lays it out:
/// <c>environment.json</c> and <c>runs/&lt;storage&gt;/&lt;scenario&gt;/{phout.log, stats.log, load.yaml, ammo.txt, meta.json}</c>,
/// plus <c>queue.json</c> for queue scenarios.
/// </summary>
public sealed record ReportInput(string Directory, JsonElement? Environment,
    IReadOnlyList<(string Storage, string Scenario, string Dir, RunMeta? Meta, QueueDepth? Queue)> Runs)
{
    public static ReportInput Discover(string directory)
    {
        if (!System.IO.Directory.Exists(directory)) throw new InputException(directory, "directory", "run directory not found");
        var runsDir = Path.Combine(directory, "runs");
        if (!System.IO.Directory.Exists(runsDir))
            throw new InputException(directory, "runs/", "no runs/<storage>/<scenario>/phout.log under the run directory");
        var runs = System.IO.Directory.GetFiles(runsDir, "phout.log", SearchOption.AllDirectories)
            .Select(Path.GetDirectoryName)
            .Select(dir =>
            {
                var meta = ReadMeta(Path.Combine(dir!, "meta.json"));
                var scenario = meta?.Scenario ?? Path.GetFileName(dir)!;
                var storage = meta?.Storage ?? Path.GetFileName(Path.GetDirectoryName(dir))!;
                // A run through a sharded cluster is its own row beside the single node's.
                if (meta is { Nodes: > 1 }) storage = $"{storage} ×{meta.Nodes}";
                return (storage, scenario, dir: dir!, meta, QueueDepth.TryRead(dir!));
            })
            .OrderBy(r => r.storage, StringComparer.Ordinal).ThenBy(r => r.scenario, StringComparer.Ordinal)
            .ToList();
        if (runs.Count == 0) throw new InputException(runsDir, "directory", "no phout.log found");
        // One row, one chart and one summary entry per architecture and scenario: two runs that name the same pair
        // (their meta.json's storage and scenario, e.g. two `tank run --scenario x` copied side by side) are refused by name.
        if (runs.GroupBy(r => (r.storage, r.scenario)).FirstOrDefault(g => g.Count() > 1) is { } twice)
        {
            var dirs = twice.Select(r => Path.GetRelativePath(directory, r.dir)).ToList();
            throw new InputException(Path.Combine(directory, dirs[1], "meta.json"), "storage, scenario",
                $"{dirs[0]} and {dirs[1]} are both {twice.Key.storage} · {twice.Key.scenario}: give each run its own --storage/--scenario");
        }
        var envPath = Path.Combine(directory, "environment.json");
        JsonElement? environment = null;
        if (File.Exists(envPath))
        {
            try { environment = JsonDocument.Parse(File.ReadAllText(envPath)).RootElement.Clone(); }
            catch (JsonException e) { throw new InputException(envPath, $"line {e.LineNumber + 1}", $"not valid JSON: {e.Message}"); }
        }
        return new ReportInput(directory, environment, runs);
    }

    private static RunMeta? ReadMeta(string path)
    {
        try { return RunMeta.TryRead(path); }
        catch (JsonException e) { throw new InputException(path, $"line {e.LineNumber + 1}", $"not valid JSON: {e.Message}"); }
    }
}
