using Tank.Autostop;
using Tank.Commands;
using Tank.Config;
using Tank.Cpu;
using Tank.Runner;
using Tank.Schedule;
using Harness;

namespace Lab.Bench;

/// <summary>
/// Executes a <see cref="Shot"/> with the runner in this process, exactly as <c>tank run</c> would
/// (same config reading, warm-up in the same runner right before the measured part, meta.json and
/// the config copy beside the results); Tank's autostops (21–23) end a run early on purpose and
/// are logged, not failures.
/// </summary>
public static class Shooter
{
    public static RunResult Fire(Shot shot, CancellationToken cancel)
    {
        var config = LoadConfigReader.Read(shot.Config);
        var closed = shot.Instances is not null;
        config = config with
        {
            Address = shot.Address,
            LoadType = closed ? "instances" : shot.Schedule is null ? config.LoadType : "rps",
            Schedule = shot.Schedule ?? config.Schedule,
            ScheduleSource = shot.Schedule is null ? config.ScheduleSource : "--schedule",
            AmmoFile = shot.AmmoFile,
            Uris = [],
            Instances = shot.Instances ?? config.Instances,
        };
        var plan = ScheduleParser.Parse(config.Schedule, config.ScheduleSource);
        var ammo = shot.Ammo ?? RunInputs.LoadAmmo(config);
        var options = new RunOptions
        {
            Address = config.Address,
            ClosedModel = config.LoadType == "instances",
            Plan = plan,
            Ammo = ammo,
            OutDir = shot.OutDir,
            Instances = config.Instances,
            TimeoutMs = config.TimeoutMs,
            Loop = config.Loop,
            AmmoLimit = config.AmmoLimit,
            Autostop = config.Autostop.Select(a => AutostopParser.Parse(a.Text, a.Source)).ToList(),
            Progress = false,
            Cpu = shot.Cpu.Prepend(new CpuTarget("tank", Environment.ProcessId)).ToList(),
            OnSecond = shot.Label is null ? null : LiveStatus.For(shot.Label),
            DecidedWhen = shot.DecidedWhen,
        };
        RunResult? warmup = null;
        if (shot.Warmup is not null)
        {
            var scratch = Directory.CreateTempSubdirectory("tank-warmup-").FullName;
            try
            {
                var warmupOptions = options with { Plan = ScheduleParser.Parse(shot.Warmup, "--warmup"), OutDir = scratch, Autostop = [], Cpu = [], DecidedWhen = null };
                warmup = new LoadRunner(warmupOptions with { OnSecond = shot.Label is null ? null : LiveStatus.For(shot.Label + " warm-up") }).Run(cancel);
            }
            finally
            {
                Directory.Delete(scratch, recursive: true);
            }
        }
        var result = new LoadRunner(options).Run(cancel);
        ToolLog.ClearStatus();
        cancel.ThrowIfCancellationRequested();
        var overrides = new RunOverrides(config.Address, null, shot.Storage, shot.Scenario, shot.Durability, config.LoadType, null, config.Instances, Quiet: true, shot.Nodes);
        RunMetadata.Write(shot.OutDir, config, overrides, plan, ammo.Count, result, result.ExitCode, shot.Warmup, warmup);
        RunInputs.CopyConfig(config.Path, shot.OutDir);
        if (result.ExitCode != 0) ToolLog.Write($"autostop (exit {result.ExitCode}) ended this run early: {result.AutostopReason}; see {shot.OutDir}/meta.json");
        return result;
    }
}
