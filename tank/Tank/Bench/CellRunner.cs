using System.Text.Json;
using Tank.Ammo;
using Tank.Commands;
using Tank.Runner;

namespace Tank.Bench;

/// <summary>
/// One measured cell (script/bench's <c>measure</c>): fresh ammo; authors to read, keys to get or
/// messages to take put in place; the servers settled; a closed-model probe for the capacity C;
/// then, in one runner, the unrecorded warm-up line(1, C) and the measured ramp line(1, 1.5·C),
/// with the service's /metrics saved right before and after, and a queue's depth before and after.
/// </summary>
public sealed class CellRunner(BenchContext context, BenchSteps steps)
{
    public CellOutcome Measure(BenchCell cell, BenchTarget target, string outDir, string label)
    {
        var profile = context.Profile;
        var api = BenchApi.Of(cell.Scenario);
        using var work = new Workspace();
        Directory.CreateDirectory(outDir);
        KeyRange? authorIds = cell.Scenario is "author-read" or "author-mixed" ? steps.AuthorIds(cell.Storage, target, work) : null;
        var ammoFile = Path.Combine(outDir, "ammo.txt");
        steps.Ammo(cell.Scenario, cell.Storage, target.Address, profile.AmmoCount, ammoFile, authorIds);
        if (cell.Scenario == "kv-get") steps.KvPrefill(cell.Storage, target, work);
        // A read probe must take real messages, not measure empty-queue answers.
        var prefilled = cell.Scenario == "queue-read" ? steps.FillQueue(cell.Storage, profile.QueueProbeDepth) : 0;
        steps.Settle();
        var ammo = RunInputs.LoadAmmo(Config.LoadConfigReader.Read(context.LoadYaml) with { AmmoFile = ammoFile });
        var capacity = steps.Probe(ammoFile, ammo, target, work, label, Path.Combine(outDir, "probe"));
        var warmup = profile.Warmup(capacity);
        var schedule = profile.Ramp(capacity);
        BenchLog.Write($"{label}: probe {capacity} rps ({profile.ProbeInstances} instances); warm-up {warmup}; measured {schedule}");
        if (cell.Scenario == "queue-read") prefilled += steps.FillQueue(cell.Storage, profile.QueueReadsNeeded(capacity));
        long? depthStart = api == BenchApi.Queue ? target.Client.QueueDepth(cell.Storage) : null;
        target.Client.ScrapeMetrics(Path.Combine(outDir, "metrics-before.txt"));
        var result = Shooter.Fire(new Shot
        {
            Config = context.LoadYaml, AmmoFile = ammoFile, Ammo = ammo, Address = target.Address, OutDir = outDir,
            Schedule = schedule, Warmup = warmup, Storage = cell.Storage, Scenario = cell.Scenario,
            Durability = context.Durability(cell.Storage), Cpu = target.Cpu, Nodes = target.Nodes, Label = label,
        }, context.Cancel);
        target.Client.ScrapeMetrics(Path.Combine(outDir, "metrics-after.txt"));
        if (depthStart is { } start)
        {
            var end = target.Client.QueueDepth(cell.Storage);
            var queue = new Dictionary<string, object> { ["queue"] = cell.Storage, ["depth_start"] = start, ["depth_end"] = end, ["prefilled"] = prefilled };
            File.WriteAllText(Path.Combine(outDir, "queue.json"), JsonSerializer.Serialize(queue) + "\n");
            BenchLog.Write($"{label}: queue depth {start} before the warm-up, {end} at the end");
        }
        return new CellOutcome(capacity, result, ammoFile, ammo);
    }
}
