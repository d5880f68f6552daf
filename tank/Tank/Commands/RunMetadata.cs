using Tank.Config;
using Tank.Runner;
using Tank.Schedule;
using Tank.Ammo;

namespace Tank.Commands;

/// <summary>Builds meta.json for a finished run.</summary>
public static class RunMetadata
{
    public static void Write(string outDir, LoadConfig config, RunOverrides overrides, LoadPlan plan, int ammoCount, RunResult result, int exitCode,
        string? warmupSchedule = null, RunResult? warmup = null) =>
        new RunMeta
        {
            Storage = overrides.Storage,
            Scenario = overrides.Scenario,
            Tag = overrides.Tag,
            Durability = overrides.Durability,
            Nodes = overrides.Nodes,
            Address = config.Address,
            LoadType = config.LoadType,
            Schedule = config.Schedule,
            Instances = config.Instances,
            TimeoutMs = config.TimeoutMs,
            AmmoFile = config.AmmoFile is null ? null : Path.GetFullPath(config.AmmoFile),
            AmmoType = config.AmmoType.ToString().ToLowerInvariant(),
            AmmoRequests = ammoCount,
            Loop = config.Loop,
            AmmoLimit = config.AmmoLimit,
            Config = Path.GetFullPath(config.Path),
            Start = result.Start,
            End = result.End,
            PlannedRequests = result.Planned,
            SentRequests = result.Sent,
            Responses = result.Responses,
            Errors = result.Errors,
            ExitCode = exitCode,
            Autostop = result.AutostopReason,
            LatenessP50Us = result.Lateness.Percentile(50),
            LatenessP99Us = result.Lateness.Percentile(99),
            LatenessMaxUs = result.Lateness.Max,
            Cpu = result.Cpu,
            CpuWallSeconds = Math.Round(result.CpuWallSeconds, 3),
            Cores = Environment.ProcessorCount,
            WarmupSchedule = warmupSchedule,
            WarmupResponses = warmup?.Responses ?? 0,
            WarmupErrors = warmup?.Errors ?? 0,
            WarmupP99Us = warmup?.IntervalReal.Percentile(99) ?? 0,
        }.Write(Path.Combine(outDir, "meta.json"));
}
