using System.Globalization;
using System.Text.Json;
using Harness;
using IntegrationService.Http;
using IntegrationService;
using Lab.Report;
using Tank.Ammo;
using Tank.Commands;
using Tank.Runner;

namespace Lab.Bench;

/// <summary>
/// One measured cell in three parts. <see cref="Prepare"/>, once: fresh ammo; authors to read, keys
/// to get or messages to take put in place; the servers settled; a closed-model probe for the
/// capacity C; then, in one runner, the unrecorded warm-up line(1, C) and the measured ramp
/// line(1, 1.5·C) the report's charts are drawn from, with the service's /metrics before and after.
/// <see cref="Repeat"/>, once per repetition, each from the same state (<see cref="StateReset"/>)
/// and the same information (C): the capacity at the SLO read off constant-rate steps and a longer
/// confirmation (<see cref="CapacityCurve"/>), every hold run again when other processes disturbed
/// it or the generator fell behind. <see cref="Finish"/>: capacity.json (each repetition, the
/// median, its interval, whether the cell is unstable and why).
/// </summary>
public sealed class CellRunner(BenchContext context, BenchSteps steps)
{
    private readonly StateReset _reset = new(context, steps);
    private readonly RedisForks _forks = new(context);

    // The last hold failed: its backlog (requests queued in the service, pipelined to a server) may
    // still be draining, and the next hold must not start inside it.
    private bool _restBeforeNextHold;

    /// <summary>Prepare, every repetition in a row, finish: a cell measured on its own (the cluster's).</summary>
    public void Measure(BenchCell cell, BenchTarget target, string outDir, string label)
    {
        using var prepared = Prepare(cell, target, outDir, label);
        for (var repeat = 1; repeat <= context.Profile.Repeats; repeat++) Repeat(prepared, repeat, order: 1);
        Finish(prepared);
    }

    public PreparedCell Prepare(BenchCell cell, BenchTarget target, string outDir, string label)
    {
        var profile = context.Profile;
        var queueRead = cell.Scenario == Scenario.QueueRead;
        var work = new Workspace();
        try
        {
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
            ToolLog.Write($"{label}: probe {capacity} rps ({profile.ProbeInstances} instances); warm-up {profile.Warmup(capacity)}; measured {profile.Ramp(capacity)}");

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
            return new PreparedCell(cell, target, outDir, label, ammoFile, capacity, work);
        }
        catch
        {
            work.Dispose();
            throw;
        }
    }

    /// <summary>One repetition from the reset state: steps, the SLO crossing, the confirmation.</summary>
    public RepeatRecord Repeat(PreparedCell cell, int repeat, int order)
    {
        var profile = context.Profile;
        var label = profile.Repeats > 1 ? $"{cell.Label} repetition {repeat}/{profile.Repeats}" : cell.Label;
        var reset = _reset.Run(cell.Cell);
        _restBeforeNextHold = false;
        ToolLog.Write($"{label}: {string.Join(", ", reset.Done.DefaultIfEmpty("nothing to reset"))}; waited {reset.WaitedSeconds:0.#} s for {reset.WaitedFor}");
        var ammo = RunInputs.LoadAmmo(Tank.Config.LoadConfigReader.Read(context.LoadYaml) with { AmmoFile = cell.AmmoFile });
        var plan = profile.Curve(context.Options.SloMs);
        var holds = new List<(Hold Hold, bool Confirmation)>();
        var cpuSeconds = new Dictionary<string, double>();
        long answers = 0;
        var dir = cell.Work[$"repeat-{repeat}"];
        var curve = CapacityCurve.Run(plan, cell.Capacity, (rate, seconds, confirmation) =>
        {
            var (hold, cpu) = RunHold(cell, ammo, Path.Combine(dir, $"hold-{holds.Count + 1}"), label, rate, seconds, confirmation);
            holds.Add((hold, confirmation));
            foreach (var (process, used) in cpu) cpuSeconds[process] = cpuSeconds.GetValueOrDefault(process) + used;
            answers += hold.Responses;
            return hold;
        });
        var perProcess = cpuSeconds.ToDictionary(p => p.Key, p => answers == 0 ? 0 : Math.Round(p.Value * 1e6 / answers, 2));
        var servers = perProcess.Where(p => p.Key != "tank").ToList();
        var confirmed = curve.Confirmation;
        var record = new RepeatRecord(repeat, curve.Rps, confirmed is null ? null : Math.Round(confirmed.P99Ms, 3),
            servers.Count > 0 ? Math.Round(servers.Sum(p => p.Value), 2) : null)
        {
            Order = order,
            Kind = Kind(curve.Kind),
            HeldRps = curve.HeldRps,
            FailedRps = curve.FailedRps,
            Confirmed = curve.Confirmed,
            StepsRps = curve.StepsRps,
            EarlierConfirmations = curve.Confirmations.TakeWhile(c => c != confirmed).Select(c => new ConfirmationTry(c.Rate, Math.Round(c.P99Ms, 3))).ToList(),
            WindowP99Ms = confirmed?.WindowP99Ms ?? [],
            StallSeconds = confirmed?.StallSeconds ?? 0,
            LongestStallSeconds = confirmed?.LongestStallSeconds ?? 0,
            ConfirmSeconds = confirmed?.Seconds ?? 0,
            ProcessCpuUsPerRequest = perProcess,
            Reset = reset,
            Reruns = holds.Sum(h => h.Hold.Reruns),
        };
        cell.Repeats.Add(record);
        cell.Holds.AddRange(holds.Select(h => Record(h.Hold, plan, h.Confirmation, repeat)));
        ToolLog.Write($"{label}: {Describe(curve)}");
        return record;
    }

    public void Finish(PreparedCell cell)
    {
        var file = CapacityFile.Of(cell.Repeats, cell.Holds, context.Profile.ConfirmSeconds, context.Profile.UnstableSpread, cell.Failures);
        file.Write(cell.OutDir);
        ToolLog.Write($"{cell.Label}: capacity {file.ConfirmedRps} rps (median of {cell.Repeats.Count}: {string.Join(", ", cell.Repeats.Select(r => r.Rps))})" +
            (file.Unstable ? $"; unstable: {string.Join("; ", file.UnstableBecause)}" : ""));
    }

    public static string Kind(EstimateKind kind) => kind switch
    {
        EstimateKind.AtLeast => "at_least",
        EstimateKind.AtMost => "at_most",
        EstimateKind.Errors => "errors",
        _ => "crossing",
    };

    private static string Describe(CurveResult curve) =>
        string.Create(CultureInfo.InvariantCulture, $"{curve.Rps} rps ({Kind(curve.Kind).Replace('_', ' ')}; steps {curve.StepsRps}; held {curve.HeldRps?.ToString(CultureInfo.InvariantCulture) ?? "—"}, not {curve.FailedRps?.ToString(CultureInfo.InvariantCulture) ?? "—"})") +
        string.Concat(curve.Confirmations.TakeWhile(c => c != curve.Confirmation).Select(c => string.Create(CultureInfo.InvariantCulture, $", confirmation failed at {c.Rate}: p99 {c.P99Ms:F2} ms"))) +
        (curve.Confirmation is { } c ? string.Create(CultureInfo.InvariantCulture, $", confirmation {(curve.Confirmed ? "held" : "failed")}: p99 {c.P99Ms:F2} ms, windows {string.Join(" / ", c.WindowP99Ms.Select(w => w.ToString("F2", CultureInfo.InvariantCulture)))} ms") : "");

    /// <summary>
    /// One hold, run again (up to max_reruns) when processes outside the run took more than
    /// foreign_cores or the generator itself fell behind: sends later than generator_late_ms at p99
    /// while answers, from the actual send, held the SLO. Returns the hold and the CPU seconds each
    /// process spent in the run that counted.
    /// </summary>
    private (Hold Hold, IReadOnlyDictionary<string, double> Cpu) RunHold(PreparedCell cell, IReadOnlyList<AmmoRequest> ammo, string dir, string label, long rate, int seconds, bool confirmation)
    {
        var profile = context.Profile;
        var sloMs = context.Options.SloMs;
        string? because = null;
        var warmup = profile.HoldWarmupSeconds(confirmation);
        for (var attempt = 0; ; attempt++)
        {
            var rested = RestAfterAFailedHold(label);
            if (cell.Cell.Scenario == Scenario.QueueRead) TopUp(cell.Cell.Storage, cell.Target, BenchProfile.QueueReadsNeeded(rate, seconds + warmup));
            var gcBefore = cell.Target.Client.GcPauseSeconds();
            var redisNodes = _forks.Nodes(cell.Cell.Storage);
            var forksBefore = _forks.Read(redisNodes);
            var window = HostCpu.Open([new Tank.Cpu.CpuTarget("tank", Environment.ProcessId), .. cell.Target.Cpu]);
            var outDir = attempt == 0 ? dir : $"{dir}-rerun-{attempt}";
            var result = Shooter.Fire(new Shot
            {
                Config = context.LoadYaml, AmmoFile = cell.AmmoFile, Ammo = ammo, Address = cell.Target.Address, OutDir = outDir,
                Schedule = $"const({rate}, {seconds}s)", Label = $"{label} hold {rate} rps",
                Warmup = warmup > 0 ? $"const({rate}, {warmup}s)" : null, Cpu = cell.Target.Cpu,
            }, context.Cancel);
            var foreign = window.ForeignCores();
            var gcPauseMs = cell.Target.Client.GcPauseSeconds() - gcBefore is { } gc ? Math.Round(gc * 1000, 1) : (double?)null;
            var forks = RedisForks.Between(forksBefore, _forks.Read(redisNodes));
            var lateP99Ms = result.Lateness.Percentile(99) / 1000.0;
            var actualP99Ms = result.IntervalReal.Percentile(99) / 1000.0;
            var behind = GeneratorBehind(profile, sloMs, lateP99Ms, actualP99Ms);
            var timeline = PhoutAnalyzer.Analyze(Path.Combine(outDir, "phout.log"), cell.Cell.Storage, cell.Cell.Name, RunMeta.TryRead(Path.Combine(outDir, "meta.json")), sloMs, confirmation ? profile.WindowSeconds : 0);
            // The raw results are read: a 30-s hold at 20 000 rps leaves 60 MB.
            Directory.Delete(outDir, recursive: true);
            // Every second of the hold that carried its share of answers (not the drain's last few).
            var stalls = StallsOf(timeline.Seconds.Where(s => s.Responses >= rate / 10).Select(s => s.P99Ms > sloMs).ToList());
            var hold = new Hold(rate, seconds, result.Planned, result.Responses, result.Errors, result.Intended.Percentile(99) / 1000.0, result.Lateness.CountAbove((long)(sloMs * 1000)))
            {
                ActualP99Ms = actualP99Ms,
                CpuUsPerRequest = result.Responses == 0 ? new Dictionary<string, double>() : result.Cpu.ToDictionary(c => c.Name, c => Math.Round(c.Seconds * 1e6 / result.Responses, 2)),
                ForeignCores = foreign is { } f ? Math.Round(f, 3) : null,
                WindowP99Ms = timeline.WindowP99Ms,
                StallSeconds = stalls.Count,
                LongestStallSeconds = stalls.Longest,
                Reruns = attempt,
                RerunBecause = because,
                GeneratorBehind = behind,
                ServiceGcPauseMs = gcPauseMs,
                RestedSeconds = rested,
                ServerForks = forks?.Forks,
                LongestForkMs = forks?.LongestForkMs,
            };
            _restBeforeNextHold = !hold.Held(sloMs, profile.MaxErrorRate);
            var voidBecause = VoidBecause(profile, sloMs, foreign, lateP99Ms, actualP99Ms);
            ToolLog.Write(string.Create(CultureInfo.InvariantCulture,
                $"{label}: const({rate}, {seconds}s): p99 {hold.P99Ms:F2} ms from the intended send (actual send {actualP99Ms:F2}), errors {hold.Errors}/{hold.Responses}, generator {hold.CpuUsPerRequest.GetValueOrDefault("tank"):0.#} µs/request, service GC paused {gcPauseMs?.ToString("0.#", CultureInfo.InvariantCulture) ?? "?"} ms") +
                (forks is { Forks: > 0 } fk ? string.Create(CultureInfo.InvariantCulture, $", Redis forked {fk.Forks}× (latest fork {fk.LongestForkMs:0.#} ms)") : "") +
                (voidBecause is null ? "" : $"; void: {voidBecause}" + (attempt < profile.MaxReruns ? ", run again" : ", no reruns left")));
            if (voidBecause is null || attempt >= profile.MaxReruns)
                return (hold, result.Cpu.ToDictionary(c => c.Name, c => c.Seconds));
            because = voidBecause;
            context.Cancel.WaitHandle.WaitOne(TimeSpan.FromSeconds(1));
        }
    }

    /// <summary>
    /// After a hold that failed, rest until the machine is idle (the backlog drained), at most
    /// rest_after_failed_seconds; returns the seconds rested (0 when the last hold held).
    /// </summary>
    private double RestAfterAFailedHold(string label)
    {
        if (!_restBeforeNextHold || context.Profile.RestAfterFailedSeconds <= 0) return 0;
        var start = Environment.TickCount64;
        var idle = HostCpu.WaitForIdle(context.Profile.IdleCores, start + context.Profile.RestAfterFailedSeconds * 1000L, context.Cancel, out var waited);
        var seconds = Math.Round((Environment.TickCount64 - start) / 1000.0, 1);
        if (waited is not null) ToolLog.Write($"{label}: after a failed hold, waited {seconds:0.#} s for {waited}{(idle ? "" : "; went on")}");
        return seconds;
    }

    /// <summary>The generator itself fell behind: its sends were late while the answers, from the actual send, held the SLO.</summary>
    public static bool GeneratorBehind(BenchProfile profile, double sloMs, double lateP99Ms, double actualP99Ms) =>
        lateP99Ms > profile.GeneratorLateMs && actualP99Ms <= sloMs;

    /// <summary>Why a hold does not count and is run again (other processes' CPU, the generator behind); null when it counts.</summary>
    public static string? VoidBecause(BenchProfile profile, double sloMs, double? foreignCores, double lateP99Ms, double actualP99Ms) =>
        foreignCores > profile.ForeignCores
            ? string.Create(CultureInfo.InvariantCulture, $"other processes took {foreignCores:0.##} cores (over {profile.ForeignCores})")
            : GeneratorBehind(profile, sloMs, lateP99Ms, actualP99Ms)
                ? string.Create(CultureInfo.InvariantCulture, $"the generator sent p99 {lateP99Ms:0.##} ms late while answers took {actualP99Ms:0.##} ms")
                : null;

    /// <summary>Seconds over the SLO, and the longest run of consecutive ones.</summary>
    public static (int Count, int Longest) StallsOf(IReadOnlyList<bool> overSlo)
    {
        int count = 0, longest = 0, run = 0;
        foreach (var over in overSlo)
        {
            run = over ? run + 1 : 0;
            if (over) count++;
            longest = Math.Max(longest, run);
        }
        return (count, longest);
    }

    private static HoldRecord Record(Hold h, CurvePlan plan, bool confirmation, int repeat) =>
        new(h.Rate, h.Seconds, Math.Round(h.P99Ms, 3), h.ErrorRate, h.Responses, plan.Held(h), confirmation, repeat, h.Late)
        {
            ActualP99Ms = Math.Round(h.ActualP99Ms, 3),
            CpuUsPerRequest = h.CpuUsPerRequest,
            ForeignCores = h.ForeignCores,
            Reruns = h.Reruns,
            RerunBecause = h.RerunBecause,
            GeneratorBehind = h.GeneratorBehind,
            WindowP99Ms = h.WindowP99Ms,
            ServiceGcPauseMs = h.ServiceGcPauseMs,
            RestedSeconds = h.RestedSeconds,
            ServerForks = h.ServerForks,
            LongestForkMs = h.LongestForkMs,
        };

    /// <summary>
    /// Fills a queue to <paramref name="needed"/> messages unless it holds that many already: asking
    /// the running service costs a request, a fill-queue run a process start.
    /// </summary>
    private void TopUp(string queue, BenchTarget target, long needed)
    {
        if (target.Client.QueueDepth(queue) < needed) steps.FillQueue(queue, needed);
    }

    private static void WriteQueueDepth(BenchCell cell, BenchTarget target, string dir, string label, long start, long prefilled)
    {
        var end = target.Client.QueueDepth(cell.Storage);
        var queue = new Dictionary<string, object> { ["queue"] = cell.Storage, ["depth_start"] = start, ["depth_end"] = end, ["prefilled"] = prefilled };
        File.WriteAllText(Path.Combine(dir, "queue.json"), JsonSerializer.Serialize(queue) + "\n");
        ToolLog.Write($"{label}: queue depth {start} before the warm-up, {end} at the end");
    }
}
