using System.Runtime.InteropServices;
using Tank.Ammo;
using Tank.Autostop;
using Tank.Config;
using Tank.Cpu;
using Tank.Runner;
using Tank.Schedule;

namespace Tank.Commands;

/// <summary>
/// <c>tank run load.yaml</c>: executes a Tank config locally. Command-line overrides let one yaml
/// serve many runs. All input is validated before the first file is written.
/// </summary>
public static class RunCommand
{
    public static int Run(CliArgs args)
    {
        if (args.Positional.Count != 1) throw new TankInputException("run needs exactly one load.yaml");
        var config = LoadConfigReader.Read(args.Positional[0]);
        var schedule = args.Get("schedule");
        var outDir = args.Get("out") ?? ".";
        var ammoOverride = args.Get("ammo");
        var timeout = args.Get("timeout");
        var warmupSchedule = args.Get("warmup");
        var cpuTargets = args.All("cpu").Select(CpuTarget.Parse).Prepend(new CpuTarget("tank", Environment.ProcessId)).ToList();
        var overrides = new RunOverrides(
            Address: args.Get("address"),
            Tag: args.Get("tag"),
            Storage: args.Get("storage"),
            Scenario: args.Get("scenario"),
            Durability: args.Get("durability"),
            LoadType: args.Get("load-type"),
            AmmoType: args.Get("ammo-type"),
            Instances: args.Long("instances", -1),
            Quiet: args.Flag("quiet"));
        args.Reject();

        config = config with
        {
            Address = overrides.Address ?? config.Address,
            LoadType = overrides.LoadType ?? config.LoadType,
            Schedule = schedule ?? config.Schedule,
            ScheduleSource = schedule is null ? config.ScheduleSource : "--schedule",
            AmmoFile = ammoOverride ?? config.AmmoFile,
            Uris = ammoOverride is null ? config.Uris : [],
            AmmoType = overrides.AmmoType is null ? config.AmmoType : AmmoFormats.Parse(overrides.AmmoType),
            Instances = overrides.Instances > 0 ? (int)overrides.Instances : config.Instances,
            TimeoutMs = timeout is null ? config.TimeoutMs : LoadConfigReader.Timeout(timeout),
        };
        if (config.LoadType is not ("rps" or "instances")) throw new TankInputException($"--load-type must be rps or instances");
        var plan = ScheduleParser.Parse(config.Schedule, config.ScheduleSource);
        var warmupPlan = warmupSchedule is null ? null : ScheduleParser.Parse(warmupSchedule, "--warmup");
        var ammo = LoadAmmo(config);
        var autostop = config.Autostop.Select(a => AutostopParser.Parse(a.Text, a.Source)).ToList();
        LoadRunner.Resolve(config.Address);

        var options = new RunOptions
        {
            Address = config.Address,
            ClosedModel = config.LoadType == "instances",
            Plan = plan,
            Ammo = ammo,
            OutDir = outDir,
            Instances = config.Instances,
            TimeoutMs = config.TimeoutMs,
            Loop = config.Loop,
            AmmoLimit = config.AmmoLimit,
            Tag = overrides.Tag,
            Autostop = autostop,
            Progress = !overrides.Quiet,
            Cpu = cpuTargets,
        };
        using var cancel = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) => { e.Cancel = true; cancel.Cancel(); };
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, c => { c.Cancel = true; cancel.Cancel(); });

        Console.Error.WriteLine($"tank: {config.LoadType} {plan} → {config.Address}: {plan.Count} planned, {ammo.Count} requests of ammo, {config.Instances} instances, timeout {config.TimeoutMs} ms");
        var warmup = warmupPlan is null ? null : WarmUpTarget(options, warmupPlan, cancel.Token);
        var result = new LoadRunner(options).Run(cancel.Token);
        var exitCode = cancel.IsCancellationRequested && result.ExitCode == 0 ? 130 : result.ExitCode;
        RunMetadata.Write(outDir, config, overrides, plan, ammo.Count, result, exitCode, warmupSchedule, warmup);
        CopyConfig(config.Path, outDir);
        if (Environment.GetEnvironmentVariable("TANK_DEBUG") is not null)
            Console.Error.WriteLine($"tank: debug: allocated {GC.GetTotalAllocatedBytes() / 1_000_000} MB, gc0 {GC.CollectionCount(0)} gc1 {GC.CollectionCount(1)} gc2 {GC.CollectionCount(2)}, pause {GC.GetTotalPauseDuration().TotalMilliseconds:F0} ms");
        Console.Error.WriteLine($"tank: done: {result.Responses} responses, {result.Errors} errors, send lateness p99 {result.Lateness.Percentile(99) / 1000.0:F3} ms, exit code {exitCode}; results in {outDir}");
        return exitCode;
    }

    /// <summary>
    /// Brings the target to steady state in the same process, right before the measured run: the
    /// warm-up's results are discarded (only a summary goes to meta.json) and no time passes
    /// between its last answer and the first measured request for pools or thread counts to shrink.
    /// </summary>
    private static RunResult WarmUpTarget(RunOptions options, LoadPlan plan, CancellationToken cancel)
    {
        var scratch = Directory.CreateTempSubdirectory("tank-warmup-").FullName;
        try
        {
            Console.Error.WriteLine($"tank: warm-up {plan} (not recorded)");
            return new LoadRunner(options with { Plan = plan, OutDir = scratch, Progress = false, Autostop = [], Cpu = [] }).Run(cancel);
        }
        finally
        {
            Directory.Delete(scratch, recursive: true);
        }
    }

    private static List<AmmoRequest> LoadAmmo(LoadConfig config)
    {
        if (config.AmmoFile is not { Length: > 0 } file)
        {
            var host = config.Headers.Any(h => h.TrimStart('[').StartsWith("Host:", StringComparison.OrdinalIgnoreCase)) ? [] : new[] { $"[Host: {config.Address}]" };
            var text = string.Join("\n", host.Concat(config.Headers).Concat(config.Uris));
            return AmmoReader.Parse(System.Text.Encoding.UTF8.GetBytes(text), config.Path + " (phantom.uris)", AmmoFormat.Uri, config.HeaderHttp);
        }
        return AmmoReader.Read(ResolveAmmoPath(file, config.Path), config.AmmoType, config.HeaderHttp);
    }

    // Tank resolves ammofile against its working directory; we also try next to the yaml.
    private static string ResolveAmmoPath(string file, string configPath)
    {
        if (Path.IsPathRooted(file) || File.Exists(file)) return file;
        var besideConfig = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(configPath))!, file);
        return File.Exists(besideConfig) ? besideConfig : file;
    }

    // The exact config goes next to the results, but never over a different existing load.yaml
    // (with --out . under Tank's shootexec the working directory may hold the user's own).
    private static void CopyConfig(string configPath, string outDir)
    {
        var target = Path.Combine(outDir, "load.yaml");
        if (Path.GetFullPath(configPath) == Path.GetFullPath(target)) return;
        if (File.Exists(target) && !File.ReadAllBytes(target).SequenceEqual(File.ReadAllBytes(configPath)))
        {
            Console.Error.WriteLine($"tank: {target} exists and differs from {configPath}; not overwriting it");
            return;
        }
        File.Copy(configPath, target, overwrite: true);
    }
}
