using IntegrationService.Http;
using System.Text.Json;
using Tank.Ammo;
using Tank.Commands;
using Lab.Report;
using Tank.Runner;
using Harness;

namespace Lab.Bench;

/// <summary>
/// One measured cell (script/bench's <c>measure</c>): fresh ammo; authors to read, keys to get or
/// messages to take put in place; the servers settled; a closed-model probe for the capacity C;
/// then, in one runner, the unrecorded warm-up line(1, C) and the measured ramp line(1, 1.5·C),
/// with the service's /metrics saved right before and after, and a queue's depth before and after;
/// then, once per repetition, the capacity at the SLO by constant-rate holds and a longer
/// confirmation (capacity.json: each repetition's confirmed rate, their median and min–max).
/// </summary>
public sealed class CellRunner(BenchContext context, BenchSteps steps)
{
    public void Measure(BenchCell cell, BenchTarget target, string outDir, string label)
    {
        var profile = context.Profile;
        var queueRead = cell.Scenario == Scenario.QueueRead;
        using var work = new Workspace();
        Directory.CreateDirectory(outDir);
        KeyRange? authorIds = cell.Scenario is Scenario.AuthorRead or Scenario.AuthorMixed ? steps.AuthorIds(cell.Storage, target, work) : null;
        var ammoFile = Path.Combine(outDir, "ammo.txt");
        steps.Ammo(cell.Scenario, cell.Storage, target.Address, profile.AmmoCount, ammoFile, authorIds, distribution: cell.Distribution, workload: cell.Workload);
        if (cell.Scenario == Scenario.KvGet) steps.KvPrefill(cell.Storage, target, work);
        // A read probe must take real messages, not measure empty-queue answers.
        var prefilled = queueRead ? steps.FillQueue(cell.Storage, profile.QueueProbeDepth) : 0;
        steps.Settle();
        var ammo = RunInputs.LoadAmmo(Tank.Config.LoadConfigReader.Read(context.LoadYaml) with { AmmoFile = ammoFile });
        var capacity = steps.Probe(ammoFile, ammo, target, work, label, Path.Combine(outDir, "probe"));
        ToolLog.Write($"{label}: probe {capacity} rps ({profile.ProbeInstances} instances); warm-up {profile.Warmup(capacity)}; measured {profile.Ramp(capacity)}" +
            (profile.Repeats > 1 ? $"; then {profile.Repeats} capacity searches" : ""));

        if (queueRead) prefilled += steps.FillQueue(cell.Storage, profile.QueueReadsNeeded(capacity));
        long? depthStart = cell.Scenario.Api() == StorageApi.Queue ? target.Client.QueueDepth(cell.Storage) : null;
        target.Client.ScrapeMetrics(Path.Combine(outDir, "metrics-before.txt"));
        Shooter.Fire(new Shot
        {
            Config = context.LoadYaml, AmmoFile = ammoFile, Ammo = ammo, Address = target.Address, OutDir = outDir,
            Schedule = profile.Ramp(capacity), Warmup = profile.Warmup(capacity), Storage = cell.Storage, Scenario = cell.Name,
            Durability = context.Durability(cell.Storage), Cpu = target.Cpu, Nodes = target.Nodes, Label = label,
        }, context.Cancel);
        target.Client.ScrapeMetrics(Path.Combine(outDir, "metrics-after.txt"));
        if (depthStart is { } start) WriteQueueDepth(cell, target, outDir, label, start, prefilled);
        var ramp = PhoutAnalyzer.Analyze(Path.Combine(outDir, "phout.log"), cell.Storage, cell.Name, RunMeta.TryRead(Path.Combine(outDir, "meta.json")), context.Options.SloMs);

        // Each repetition is a whole search and confirmation, so the run-to-run spread compare
        // judges is the spread of confirmed capacities, not of quick ramps (whose worst second can be 0).
        var repeats = new List<RepeatRecord>();
        var holds = new List<HoldRecord>();
        long? hint = ramp.MaxSustainedRps > 0 ? (long)ramp.MaxSustainedRps : null;
        long best = 0;
        for (var repeat = 1; repeat <= profile.Repeats; repeat++)
        {
            var plan = profile.Search(context.Options.SloMs, repeat, confirmedBefore: best > 0);
            var search = Search(cell, target, ammoFile, ammo, work[$"search-{repeat}"], profile.Repeats > 1 ? $"{label} search {repeat}/{profile.Repeats}" : label, capacity, hint, plan);
            repeats.Add(new RepeatRecord(repeat, search.ConfirmedRps, search.ConfirmedRps > 0 ? Math.Round(search.Confirmation!.P99Ms, 3) : null, search.NeverFailed,
                search.ConfirmedRps > 0 ? search.Confirmation!.CpuUsPerRequest : null));
            holds.AddRange(search.Holds.Select(h => Record(h, plan, false, repeat)).Concat(search.Confirmations.Select(h => Record(h, plan, true, repeat))));
            // The next repetition starts from the best rate confirmed so far: fewer holds spent far
            // from the knee. Not from the last one: a repetition confirmed 20 % lower would pull every
            // later one down with it (seen: 28 759, then 23 007, then 18 405 on tarantool-memtx).
            (hint, best) = NextStart(hint, best, search.ConfirmedRps);
        }
        CapacityFile.Of(repeats, holds, profile.ConfirmSeconds, SearchPlan.BenchHeadroom).Write(outDir);
        ToolLog.Write($"{label}: ramp max rps @ SLO {ramp.MaxSustainedRps}; confirmed " +
            string.Join(", ", repeats.Select(r => r.ConfirmedRps > 0 ? $"{r.ConfirmedRps} rps (p99 {r.ConfirmedP99Ms:F2} ms)" : "nothing")) + $" over {profile.ConfirmSeconds} s");
    }

    /// <summary>
    /// Where the next repetition's search starts, after one that confirmed <paramref name="confirmed"/>
    /// (0: nothing): the best rate confirmed so far, else the hint it had (the ramp's estimate).
    /// </summary>
    public static (long? Hint, long Best) NextStart(long? hint, long best, long confirmed) =>
        confirmed > best ? (confirmed, confirmed) : (hint, best);

    /// <summary>Idle seconds after a hold that failed by far, before the next one.</summary>
    public const int RecoverySeconds = 1;

    /// <summary>
    /// Idle seconds after a confirmation that failed, before the one 20 % lower: a confirmation is ended
    /// as soon as it cannot hold, often within a second or two of a rate the server could not take, and
    /// the backlog it leaves (a write-ahead log behind, a queue in the service) failed the next one
    /// within 2 s after a 1-s pause.
    /// </summary>
    public const int ConfirmationRecoverySeconds = 3;

    /// <summary>
    /// Whether a hold runs its unrecorded warm-up first: not a confirmation right after a search hold
    /// at the same rate that held (that hold was its warm-up, and a second's more).
    /// </summary>
    public static bool WarmsUp(bool confirmation, long rate, long? lastRate, bool lastHeld) => !(confirmation && rate == lastRate && lastHeld);

    // A search hold's "held" is the search's judgement (with headroom); a confirmation's, the SLO's.
    private static HoldRecord Record(Hold h, SearchPlan plan, bool confirmation, int repeat) =>
        new(h.Rate, h.Seconds, Math.Round(h.P99Ms, 3), h.ErrorRate, h.Responses, h.Held(plan.JudgedAtMs(confirmation)), confirmation, repeat, h.Late);

    // Holds right after the ramp (or the previous search), on the warm service.
    private SearchResult Search(BenchCell cell, BenchTarget target, string ammoFile, IReadOnlyList<AmmoRequest> ammo, string dir, string label, long capacity, long? hint, SearchPlan plan)
    {
        var holds = 0;
        var overloaded = false;
        var confirmationFailed = false;
        long? lastRate = null;
        var lastHeld = false;
        var sloUs = (long)(context.Options.SloMs * 1000);
        return CapacitySearch.Run(plan, context.Profile.RampTop(capacity), hint, (rate, seconds) =>
        {
            // A hold far past the knee leaves queues in the service and the server (seen: a held
            // rate failing right after one); idle a moment so they drain before the next is judged.
            if (overloaded || confirmationFailed)
                context.Cancel.WaitHandle.WaitOne(TimeSpan.FromSeconds(confirmationFailed ? ConfirmationRecoverySeconds : RecoverySeconds));
            var confirmation = seconds > plan.HoldSeconds;
            if (cell.Scenario == Scenario.QueueRead) TopUp(cell.Storage, target, BenchProfile.QueueReadsNeeded(rate, seconds + plan.WarmupSeconds));
            var result = Shooter.Fire(new Shot
            {
                Config = context.LoadYaml, AmmoFile = ammoFile, Ammo = ammo, Address = target.Address, OutDir = Path.Combine(dir, $"hold-{++holds}"),
                Schedule = $"const({rate}, {seconds}s)", Label = $"{label} hold {rate} rps",
                Warmup = plan.WarmupSeconds > 0 && WarmsUp(confirmation, rate, lastRate, lastHeld) ? $"const({rate}, {plan.WarmupSeconds}s)" : null, Cpu = target.Cpu,
                // A confirmation is ended as soon as it cannot hold any more (a search hold runs out:
                // how far it missed decides whether it is held again).
                DecidedWhen = confirmation ? m => Hold.DecidedFailure(rate * seconds, m.Intended.CountAbove(sloUs), m.Errors, m.Lateness.CountAbove(sloUs)) : null,
            }, context.Cancel);
            // A confirmation ended early counts the seconds it ran (capacity.json, the report's hold table).
            var ran = result.Decided is null ? seconds : Math.Round((result.End - result.Start).TotalSeconds, 1);
            var servers = result.Cpu.Where(c => c.Name != "tank").ToList();
            var hold = new Hold(rate, ran, result.Planned, result.Responses, result.Errors, result.Intended.Percentile(99) / 1000.0,
                result.Lateness.CountAbove((long)(context.Options.SloMs * 1000)),
                servers.Count > 0 && result.Responses > 0 ? Math.Round(servers.Sum(c => c.Seconds) * 1e6 / result.Responses, 2) : null);
            overloaded = !hold.Held(context.Options.SloMs) && !hold.Borderline(context.Options.SloMs);
            var judgedAt = plan.JudgedAtMs(confirmation);
            confirmationFailed = confirmation && !hold.Held(judgedAt);
            (lastRate, lastHeld) = (rate, hold.Held(judgedAt));
            ToolLog.Write($"{label}: const({rate}, {seconds}s): p99 {hold.P99Ms:F2} ms from the intended send (actual send {result.IntervalReal.Percentile(99) / 1000.0:F2}), " +
                $"errors {hold.Errors}/{hold.Responses}, late > SLO {hold.Late}: {(hold.Held(judgedAt) ? "held" : "not held")}" +
                (judgedAt < plan.SloMs ? $" (a search hold: p99 ≤ {judgedAt:0.##} ms)" : "") +
                (result.Decided is null ? "" : $" (ended after {ran:F1} s: {result.Decided})"));
            return hold;
        });
    }

    /// <summary>
    /// Fills a queue to <paramref name="needed"/> messages unless it holds that many already: asking
    /// the running service costs a request, a fill-queue run a process start (about 1.5 s, before
    /// each of a queue-read cell's dozen holds).
    /// </summary>
    private void TopUp(string queue, BenchTarget target, long needed)
    {
        if (target.Client.QueueDepth(queue) < needed) steps.FillQueue(queue, needed);
    }

    public static double Median(IEnumerable<double> values) => CapacityFile.MedianOf(values);

    private static void WriteQueueDepth(BenchCell cell, BenchTarget target, string dir, string label, long start, long prefilled)
    {
        var end = target.Client.QueueDepth(cell.Storage);
        var queue = new Dictionary<string, object> { ["queue"] = cell.Storage, ["depth_start"] = start, ["depth_end"] = end, ["prefilled"] = prefilled };
        File.WriteAllText(Path.Combine(dir, "queue.json"), JsonSerializer.Serialize(queue) + "\n");
        ToolLog.Write($"{label}: queue depth {start} before the warm-up, {end} at the end");
    }
}
