using System.Globalization;
using Tank.Schedule;

namespace Lab.Bench;

/// <summary>
/// The method of a bench run as data (lab/profiles/default.yaml, quick.yaml and a user's
/// <c>--profile</c> file, read by <see cref="ProfileFile"/>): the data set, each cell's preparation
/// (a closed-model probe for the capacity C, the warm-up and the ramp the report draws), the
/// repetitions and their shuffle seed, each repetition's constant-rate steps and confirmation, the
/// state every repetition starts from, when a hold is run again, and when a cell is unstable. The
/// keys are these properties' names in snake_case; their meaning is in default.yaml's comments.
/// </summary>
public sealed record BenchProfile
{
    public string Name { get; init; } = "default";
    public long Locations { get; init; }
    public long Items { get; init; }
    public long KvKeys { get; init; }
    /// <summary>The runner loops over the file when a schedule needs more.</summary>
    public long AmmoCount { get; init; }
    public long PrefillCount { get; init; }
    public string PrefillSchedule { get; init; } = "";
    public long QueueProbeDepth { get; init; }
    public long QueueReadDepth { get; init; }
    public int ProbeInstances { get; init; }
    public string ProbeSchedule { get; init; } = "";
    public int WarmupSeconds { get; init; }
    public int RampSeconds { get; init; }
    public double RampFactor { get; init; }
    public int ClusterWarmupSeconds { get; init; }
    public int Repeats { get; init; }
    public int ShuffleSeed { get; init; }
    public double StepStart { get; init; }
    public double StepFactor { get; init; }
    public int MaxSteps { get; init; }
    public int StepSeconds { get; init; }
    public int StepWarmupSeconds { get; init; }
    public int StepRetries { get; init; }
    public int ConfirmWarmupSeconds { get; init; }
    public int ConfirmSeconds { get; init; }
    public int MaxConfirmations { get; init; } = 1;
    public double ConfirmBackoff { get; init; } = 1.15;
    public int WindowSeconds { get; init; }
    public double MaxErrorRate { get; init; }
    public bool Settle { get; init; }
    public double IdleCores { get; init; }
    public int RestMaxSeconds { get; init; }
    public int RestAfterFailedSeconds { get; init; }
    public double ForeignCores { get; init; }
    public double GeneratorLateMs { get; init; }
    public int MaxReruns { get; init; }
    public double UnstableSpread { get; init; }
    public int CrossCheckConnections { get; init; }
    public int CrossCheckSeconds { get; init; }
    /// <summary>Cells ("architecture scenario", comma-separated) a run without --storage and --scenario leaves out.</summary>
    public string LeaveOut { get; init; } = "";

    /// <summary>The <see cref="LeaveOut"/> entries.</summary>
    [YamlDotNet.Serialization.YamlIgnore]
    public IReadOnlyList<string> LeftOutCells => LeaveOut.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>Cells ("architecture scenario", comma-separated) a run without --storage and --scenario measures beyond its scenarios.</summary>
    public string AlsoRun { get; init; } = "";

    /// <summary>The <see cref="AlsoRun"/> entries.</summary>
    [YamlDotNet.Serialization.YamlIgnore]
    public IReadOnlyList<string> AddedCells => AlsoRun.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    [YamlDotNet.Serialization.YamlIgnore]
    public bool Quick => Name == "quick";

    /// <summary>The measured ramp's top for a probed capacity.</summary>
    public long RampTop(long capacity) => (long)(capacity * RampFactor);

    public string Warmup(long capacity) => $"line(1, {capacity}, {WarmupSeconds}s)";

    public string Ramp(long capacity) => string.Create(CultureInfo.InvariantCulture, $"line(1, {RampTop(capacity)}, {RampSeconds}s)");

    /// <summary>
    /// Messages a queue-read run's warm-up and ramp can take (the areas under their lines) plus
    /// 20 %, so the queue never runs dry while measured.
    /// </summary>
    public long QueueReadsNeeded(long capacity) => (capacity * WarmupSeconds + RampTop(capacity) * RampSeconds) * 6 / 10 + 1000;

    /// <summary>The unrecorded seconds at a hold's rate before it is measured.</summary>
    public int HoldWarmupSeconds(bool confirmation) => confirmation ? ConfirmWarmupSeconds : StepWarmupSeconds;

    /// <summary>Messages a constant hold takes, plus 20 %.</summary>
    public static long QueueReadsNeeded(long rate, int seconds) => rate * seconds * 12 / 10 + 1000;

    /// <summary>How a repetition's steps and confirmation run and are judged.</summary>
    public CurvePlan Curve(double sloMs) => new(sloMs, StepStart, StepFactor, MaxSteps, StepSeconds, ConfirmSeconds, MaxErrorRate, MaxConfirmations, ConfirmBackoff, StepRetries);

    /// <summary>
    /// The seconds one repetition of one cell plans for: its steps (each with its warm-up, all but
    /// the bisecting one), a retry of one step (the one above the crossing fails by latency), the
    /// first confirmation and half of the further ones (about half the first confirmations fail on
    /// two cores), one rest after a failed hold, the reset.
    /// </summary>
    [YamlDotNet.Serialization.YamlIgnore]
    public double SecondsPerRepetition => (MaxSteps - 1 + Math.Min(StepRetries, 1)) * (StepSeconds + StepWarmupSeconds) + (1 + (MaxConfirmations - 1) / 2.0) * (ConfirmSeconds + ConfirmWarmupSeconds) + RestAfterFailedSeconds + (Settle ? 4 : 1);

    /// <summary>Checks what a file can get wrong that its types do not: ranges and schedules. Returns the problems found.</summary>
    public IEnumerable<string> Problems()
    {
        if (Repeats < 1) yield return "repeats must be at least 1";
        if (StepStart <= 0) yield return "step_start must be above 0";
        if (StepFactor <= 1) yield return "step_factor must be above 1";
        if (MaxSteps < 2) yield return "max_steps must be at least 2 (one that holds, one that does not)";
        if (StepSeconds < 1 || ConfirmSeconds < 1 || RampSeconds < 1) yield return "step_seconds, confirm_seconds and ramp_seconds must be at least 1";
        if (MaxConfirmations < 1) yield return "max_confirmations must be at least 1";
        if (StepRetries < 0 || StepWarmupSeconds < 0 || ConfirmWarmupSeconds < 0) yield return "step_retries, step_warmup_seconds and confirm_warmup_seconds cannot be negative";
        if (ConfirmBackoff <= 1) yield return "confirm_backoff must be above 1";
        if (WindowSeconds < 1 || WindowSeconds > ConfirmSeconds) yield return "window_seconds must lie between 1 and confirm_seconds";
        if (MaxErrorRate is < 0 or >= 1) yield return "max_error_rate must lie in [0, 1)";
        if (UnstableSpread <= 0) yield return "unstable_spread must be above 0";
        if (MaxReruns < 0 || RestMaxSeconds < 0 || RestAfterFailedSeconds < 0 || IdleCores < 0 || ForeignCores < 0 || GeneratorLateMs < 0) yield return "max_reruns, rest_max_seconds, rest_after_failed_seconds, idle_cores, foreign_cores and generator_late_ms cannot be negative";
        if (ProbeInstances < 1 || Locations < 1 || Items < 1 || KvKeys < 1 || AmmoCount < 1 || PrefillCount < 1) yield return "probe_instances, locations, items, kv_keys, ammo_count and prefill_count must be at least 1";
        foreach (var (key, schedule) in new[] { ("probe_schedule", ProbeSchedule), ("prefill_schedule", PrefillSchedule) })
        {
            string? problem = null;
            try { ScheduleParser.Parse(schedule, key); }
            catch (Harness.CommandLine.InputException e) { problem = $"{key}: {e.Message}"; }
            if (problem is not null) yield return problem;
        }
    }
}
