using System.Globalization;
using System.Text.Json;
using Tank.Commands;
using Lab.Report;
using Harness.CommandLine;
using Harness;

namespace Lab.Bench;

/// <summary>
/// The end of a bench run: environment.json (as <c>lab env</c>: machine, server versions, every
/// architecture's durability, a note on how the run was made), the report (as <c>lab report</c>),
/// reports/latest pointing at it, and the cross-check verdicts and warnings on stderr.
/// </summary>
public static class BenchReport
{
    public static void Write(BenchContext context, string stamp)
    {
        ToolLog.Write("writing the report");
        EnvironmentFile.Write(context.RunDir, ServerVersions.Detect(context.Cancel).ToDictionary(),
            context.Catalogue.ToDictionary(a => a.Name, a => a.Durability.Text), Note(context.Profile, context.Options), Command(context.Options));
        var runs = ReportBuilder.Build(context.RunDir, context.Options.SloMs);
        ToolLog.Write($"the report of {runs.Count} runs is written");

        var latest = Path.Combine(context.Options.Root, "reports", "latest");
        if (File.Exists(latest) || Directory.Exists(latest)) File.Delete(latest);
        File.CreateSymbolicLink(latest, stamp);
        PrintSummary(Path.Combine(context.RunDir, "summary.json"));
        ToolLog.Write($"report: reports/{stamp}/report.md (and report.html); reports/latest points at it");
    }

    /// <summary>The script/bench command line that asked for this run (its options as parsed).</summary>
    public static string Command(BenchOptions o)
    {
        var parts = new List<string> { "script/bench" };
        if (o.Quick) parts.Add("--quick");
        if (o.Storages is { } storages) parts.Add($"--storage {string.Join(',', storages)}");
        if (o.Scenarios is { } scenarios) parts.Add($"--scenario {string.Join(',', scenarios)}");
        if (o.SloMs != 10) parts.Add(string.Create(CultureInfo.InvariantCulture, $"--slo-ms {o.SloMs}"));
        if (o.Seed != 1) parts.Add($"--seed {o.Seed}");
        if (o.Repeat is { } repeat) parts.Add($"--repeat {repeat}");
        if (o.Workload is { } workload) parts.Add($"--workload {workload}");
        if (o.Distribution is { } distribution) parts.Add($"--distribution {distribution}");
        if (o.CrossCheck) parts.Add("--crosscheck");
        if (o.ClusterNodes >= 2) parts.Add($"--cluster {o.ClusterNodes}");
        if (o.Pin) parts.Add("--pin");
        if (o.Throttles.Count > 0) parts.Add("--throttle " + string.Join(',', o.Throttles.Select(t => string.Create(CultureInfo.InvariantCulture, $"{t.Key}={t.Value}"))));
        return string.Join(' ', parts);
    }

    public static string Note(BenchProfile p, BenchOptions o)
    {
        var note = string.Create(CultureInfo.InvariantCulture,
            $"item data set: {p.Locations} locations, {p.Items} items (seed 42, loaded when an item cell runs); ammo seed {o.Seed}; service, servers and load generator share this machine")
            + string.Create(CultureInfo.InvariantCulture,
            $"; each run: closed-model probe ({p.ProbeInstances} instances) for capacity C, warm-up line(1, C, {p.WarmupSeconds}s) unrecorded, measured line(1, {p.RampFactor}·C, {p.RampSeconds}s)")
            + string.Create(CultureInfo.InvariantCulture,
            $"; then {(p.Repeats == 1 ? "one repetition" : $"{p.Repeats} independent repetitions, interleaved (repetition k of every cell, then k+1, each round shuffled with seed {p.ShuffleSeed})")}, each from a reset state (queues emptied, servers settled{(p.Settle ? "" : " only with settle")}, the machine idle): constant-rate steps of {p.StepSeconds} s from {p.StepStart}·C by ×{p.StepFactor} (at most {p.MaxSteps}, each after {p.StepWarmupSeconds} s unrecorded{(p.StepRetries > 0 ? $", one that failed by latency measured again up to {p.StepRetries} time(s)" : "")}), the capacity where p99 crosses the SLO interpolated between the step that held and the one that did not, then a {p.ConfirmSeconds}-s confirmation at it after {p.ConfirmWarmupSeconds} s unrecorded (p99 per {p.WindowSeconds}-s window); after a hold that failed a rest until the machine is idle (at most {p.RestAfterFailedSeconds} s); holds disturbed by other processes (> {p.ForeignCores} cores) or with the generator behind run again (at most {p.MaxReruns}); unstable when the repetitions spread over {p.UnstableSpread:P0} of their median; profile {p.Name} (profile.yaml)")
            + string.Create(CultureInfo.InvariantCulture, $"; queue-read repetitions start from a queue emptied and filled to {p.QueueReadDepth} messages, topped up before each hold")
            + $"; kv-put writes 1 KiB random values over {p.KvKeys} keys, kv-get reads them after every key was written once";
        if (o.ClusterNodes >= 2)
            note += $"; rows \"<store> ×{o.ClusterNodes}\": the key-value scenarios through node 0 of a {o.ClusterNodes}-node sharded cluster (script/cluster), each node with its own store, on the same 2 cores";
        if (o.Pin) note += "; --pin: the generator on the first core, the service and its servers on the others (cgroup cpusets), so every figure is of a stack with fewer cores";
        if (o.Throttles.Count > 0)
            note += "; --throttle: " + string.Join(", ", o.Throttles.Select(t => string.Create(CultureInfo.InvariantCulture, $"{t.Key} held to {t.Value} cores"))) + " (cgroup cpu quota) for the whole run";
        if (BenchMatrix.LeavesOut(o.Storages, o.Scenarios, o.Workload, o.ClusterNodes) && p.LeftOutCells.Count > 0)
            note += $"; left out of this {(p.Quick ? "quick" : "default")} run (profile leave_out; named with --storage or --scenario they run): {string.Join(", ", p.LeftOutCells)}";
        if (BenchMatrix.LeavesOut(o.Storages, o.Scenarios, o.Workload, o.ClusterNodes) && p.AddedCells.Count > 0)
            note += $"; added to this {(p.Quick ? "quick" : "default")} run beyond its scenarios (profile also_run): {string.Join(", ", p.AddedCells)}";
        if (p.Quick) note += ". --quick: short steps on a reduced data set, a smoke test, not a basis for conclusions";
        return note;
    }

    private static void PrintSummary(string path)
    {
        if (!File.Exists(path)) return;
        using var summary = JsonDocument.Parse(File.ReadAllText(path));
        if (summary.RootElement.TryGetProperty("crosscheck", out var checks))
            foreach (var c in checks.EnumerateArray())
                Console.Error.WriteLine($"cross-check {c.GetProperty("storage")} {c.GetProperty("endpoint")}: wrk {c.GetProperty("wrk_rps")} rps, tank {c.GetProperty("tank_rps")} rps: {c.GetProperty("verdict")}");
        if (summary.RootElement.TryGetProperty("warnings", out var warnings))
            foreach (var w in warnings.EnumerateArray()) Console.Error.WriteLine($"WARNING: {w.GetString()}");
    }
}
