using System.Text.Json;
using Tank.Ammo;
using Tank.Commands;
using Tank.Report;

namespace Tank.Bench;

/// <summary>
/// One measured cell (script/bench's <c>measure</c>): fresh ammo; authors to read, keys to get or
/// messages to take put in place; the servers settled; a closed-model probe for the capacity C;
/// then, in one runner, the unrecorded warm-up line(1, C) and the measured ramp line(1, 1.5·C),
/// with the service's /metrics saved right before and after, and a queue's depth before and after;
/// the ramp again for each further repeat (kept under repeats/, outside the report's runs/); then
/// the capacity at the SLO by constant-rate holds and a longer confirmation (capacity.json).
/// </summary>
public sealed class CellRunner(BenchContext context, BenchSteps steps)
{
    public void Measure(BenchCell cell, BenchTarget target, string outDir, string label)
    {
        var profile = context.Profile;
        var api = BenchApi.Of(cell.Scenario);
        var queueRead = cell.Scenario == "queue-read";
        using var work = new Workspace();
        Directory.CreateDirectory(outDir);
        KeyRange? authorIds = cell.Scenario is "author-read" or "author-mixed" ? steps.AuthorIds(cell.Storage, target, work) : null;
        var ammoFile = Path.Combine(outDir, "ammo.txt");
        steps.Ammo(cell.Scenario, cell.Storage, target.Address, profile.AmmoCount, ammoFile, authorIds);
        if (cell.Scenario == "kv-get") steps.KvPrefill(cell.Storage, target, work);
        // A read probe must take real messages, not measure empty-queue answers.
        var prefilled = queueRead ? steps.FillQueue(cell.Storage, profile.QueueProbeDepth) : 0;
        steps.Settle();
        var ammo = RunInputs.LoadAmmo(Config.LoadConfigReader.Read(context.LoadYaml) with { AmmoFile = ammoFile });
        var capacity = steps.Probe(ammoFile, ammo, target, work, label, Path.Combine(outDir, "probe"));
        BenchLog.Write($"{label}: probe {capacity} rps ({profile.ProbeInstances} instances); warm-up {profile.Warmup(capacity)}; measured {profile.Ramp(capacity)}" +
            (profile.Repeats > 1 ? $", {profile.Repeats} times" : ""));

        var repeats = new List<RepeatRecord>();
        for (var repeat = 1; repeat <= profile.Repeats; repeat++)
        {
            var first = repeat == 1;
            var dir = first ? outDir : Path.Combine(context.RunDir, "repeats", Path.GetRelativePath("runs", cell.RelativeDir), repeat.ToString(System.Globalization.CultureInfo.InvariantCulture));
            Directory.CreateDirectory(dir);
            if (queueRead) prefilled += steps.FillQueue(cell.Storage, profile.QueueReadsNeeded(capacity, warmup: first));
            long? depthStart = first && api == BenchApi.Queue ? target.Client.QueueDepth(cell.Storage) : null;
            if (first) target.Client.ScrapeMetrics(Path.Combine(dir, "metrics-before.txt"));
            // Later repeats follow the previous ramp at once: the service is warm.
            Shooter.Fire(new Shot
            {
                Config = context.LoadYaml, AmmoFile = ammoFile, Ammo = ammo, Address = target.Address, OutDir = dir,
                Schedule = profile.Ramp(capacity), Warmup = first ? profile.Warmup(capacity) : null, Storage = cell.Storage, Scenario = cell.Scenario,
                Durability = context.Durability(cell.Storage), Cpu = target.Cpu, Nodes = target.Nodes,
                Label = profile.Repeats > 1 ? $"{label} ramp {repeat}/{profile.Repeats}" : label,
            }, context.Cancel);
            if (first) target.Client.ScrapeMetrics(Path.Combine(dir, "metrics-after.txt"));
            if (depthStart is { } start) WriteQueueDepth(cell, target, dir, label, start, prefilled);
            var run = PhoutAnalyzer.Analyze(Path.Combine(dir, "phout.log"), cell.Storage, cell.Scenario, RunMeta.TryRead(Path.Combine(dir, "meta.json")), context.Options.SloMs);
            repeats.Add(new RepeatRecord(repeat, run.MaxSustainedRps, Math.Round(run.QuantilesMs["p99"], 3), Math.Round(run.AchievedRps, 1), Path.GetRelativePath(context.RunDir, dir)));
        }

        var search = Search(cell, target, ammoFile, ammo, work, label, capacity, repeats);
        Capacity(search, profile, repeats, context.Options.SloMs).Write(outDir);
        BenchLog.Write($"{label}: max rps @ SLO {string.Join(", ", repeats.Select(r => r.MaxRpsAtSlo))}; " +
            (search.ConfirmedRps > 0 ? $"confirmed {search.ConfirmedRps} rps (p99 {search.Confirmation!.P99Ms:F2} ms over {profile.ConfirmSeconds} s)" : "no rate held the SLO for the confirmation"));
    }

    // Holds right after the ramps, on the warm service; the ramps' median suggests where to start.
    private SearchResult Search(BenchCell cell, BenchTarget target, string ammoFile, IReadOnlyList<AmmoRequest> ammo, Workspace work, string label, long capacity, List<RepeatRecord> repeats)
    {
        var hint = (long)Median(repeats.Select(r => r.MaxRpsAtSlo));
        var holds = 0;
        return CapacitySearch.Run(context.Profile.Search(context.Options.SloMs), context.Profile.RampTop(capacity), hint > 0 ? hint : null, (rate, seconds) =>
        {
            if (cell.Scenario == "queue-read") steps.FillQueue(cell.Storage, BenchProfile.QueueReadsNeeded(rate, seconds));
            var result = Shooter.Fire(new Shot
            {
                Config = context.LoadYaml, AmmoFile = ammoFile, Ammo = ammo, Address = target.Address, OutDir = work[$"hold-{++holds}"],
                Schedule = $"const({rate}, {seconds}s)", Label = $"{label} hold {rate} rps",
            }, context.Cancel);
            var hold = new Hold(rate, seconds, result.Planned, result.Responses, result.Errors, result.IntervalReal.Percentile(99) / 1000.0);
            BenchLog.Write($"{label}: const({rate}, {seconds}s): p99 {hold.P99Ms:F2} ms, errors {hold.Errors}/{hold.Responses}: {(hold.Held(context.Options.SloMs) ? "held" : "not held")}");
            return hold;
        });
    }

    private static CapacityFile Capacity(SearchResult search, BenchProfile profile, List<RepeatRecord> repeats, double sloMs)
    {
        var values = repeats.Select(r => r.MaxRpsAtSlo).ToList();
        HoldRecord Record(Hold h, bool confirmation) =>
            new(h.Rate, h.Seconds, Math.Round(h.P99Ms, 3), h.ErrorRate, h.Responses, h.Held(sloMs), confirmation);
        return new CapacityFile
        {
            ConfirmedRps = search.ConfirmedRps,
            ConfirmedP99Ms = search.ConfirmedRps > 0 ? Math.Round(search.Confirmation!.P99Ms, 3) : null,
            ConfirmSeconds = profile.ConfirmSeconds,
            Holds = [.. search.Holds.Select(h => Record(h, false)), .. search.Confirmations.Select(h => Record(h, true))],
            Repeats = repeats,
            Median = Median(values),
            Spread = values.Count == 0 ? null : new Spread(values.Min(), values.Max()),
        };
    }

    public static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        if (sorted.Count == 0) return 0;
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
    }

    private static void WriteQueueDepth(BenchCell cell, BenchTarget target, string dir, string label, long start, long prefilled)
    {
        var end = target.Client.QueueDepth(cell.Storage);
        var queue = new Dictionary<string, object> { ["queue"] = cell.Storage, ["depth_start"] = start, ["depth_end"] = end, ["prefilled"] = prefilled };
        File.WriteAllText(Path.Combine(dir, "queue.json"), JsonSerializer.Serialize(queue) + "\n");
        BenchLog.Write($"{label}: queue depth {start} before the warm-up, {end} at the end");
    }
}
