using System.CommandLine;
using System.Runtime.InteropServices;
using Tank.Ammo;
using Tank.Autostop;
using Tank.Config;
using Tank.Cpu;
using Tank.Runner;
using Tank.Schedule;
using Harness.CommandLine;

namespace Tank.Commands;

/// <summary>
/// <c>tank run load.yaml</c>: executes a Tank config locally. Command-line overrides let one yaml
/// serve many runs. All input is validated before the first file is written.
/// </summary>
public sealed class RunCommand : Command
{
    private readonly Argument<string> _config = new("load.yaml") { Description = "The Tank config to execute (phantom section, autostop)" };
    private readonly Option<string?> _ammo = CliOption.Create<string?>("--ammo", "Ammo file instead of the config's ammofile or uris", ValueParsers.NonEmpty, "file");
    private readonly Option<string?> _address = CliOption.Create<string?>("--address", "Target instead of phantom.address", ValueParsers.Address, "host:port");
    private readonly Option<string?> _schedule = CliOption.Create<string?>("--schedule", "Schedule instead of the config's, e.g. \"line(1, 100, 60s)\"", ValueParsers.Schedule, "schedule");
    private readonly Option<string> _out = CliOption.Create("--out", "Directory for phout.log, stats.log, meta.json and a copy of the config", ValueParsers.NonEmpty, "dir").WithDefault(".");
    private readonly Option<string?> _tag = CliOption.Create<string?>("--tag", "Replaces every request's tag", ValueParsers.Text, "tag");
    private readonly Option<string?> _storage = CliOption.Create<string?>("--storage", "The architecture, recorded in meta.json for the report", ValueParsers.Text, "name");
    private readonly Option<string?> _scenario = CliOption.Create<string?>("--scenario", "The scenario, recorded in meta.json for the report", ValueParsers.Text, "name");
    private readonly Option<string?> _durability = CliOption.Create<string?>("--durability", "The architecture's durability settings, recorded in meta.json", ValueParsers.Text, "text");
    private readonly Option<long?> _instances = CliOption.Create("--instances", "Instances instead of phantom.instances (the most in flight; the workers of a closed model)",
        ValueParsers.WholeNumber(min: 1, max: int.MaxValue).Optional(), "n");
    private readonly Option<long?> _timeout = CliOption.Create("--timeout", "Per-request timeout instead of phantom.timeout: 500ms, 10s, 1m", ValueParsers.Duration.Optional(), "duration");
    private readonly Option<string?> _loadType = CliOption.Create<string?>("--load-type", "rps: open model; instances: closed model (instead of the config's load_type)",
        ValueParsers.Choice(["rps", "instances"], t => t), "rps|instances");
    private readonly Option<AmmoFormat?> _ammoType = CliOption.Create("--ammo-type", "Ammo format instead of phantom.ammo_type",
        ValueParsers.Choice(["phantom", "uri", "uripost"], AmmoFormats.Parse).Optional(), "phantom|uri|uripost");
    private readonly Option<string?> _warmup = CliOption.Create<string?>("--warmup", "Runs this schedule first, in the same process, and records only a summary of it in meta.json",
        ValueParsers.Schedule, "schedule");
    private readonly Option<CpuTarget[]> _cpu = CliOption.Many("--cpu", "Accounts this process tree's CPU over the measured part (repeatable; tank always accounts itself)",
        (_, text) => CpuTarget.Parse(text), "name=pid");
    private readonly Option<long?> _nodes = CliOption.Create("--nodes", "The target is node 0 of a sharded cluster of N service nodes, recorded in meta.json; the report labels the run \"<storage> ×N\"",
        ValueParsers.WholeNumber(min: 1, max: 99).Optional(), "n");
    private readonly Option<bool> _quiet = CliOption.Flag("--quiet", "No progress line each second");

    public RunCommand() : base("run", "Executes a Tank config; exits 0, Tank's autostop code (21 time/quantile/limit, 22 http, 23 net), 2 on bad input, 130 when interrupted")
    {
        Add(_config);
        foreach (var option in new Option[] { _ammo, _address, _schedule, _out, _tag, _storage, _scenario, _durability, _instances, _timeout, _loadType, _ammoType, _warmup, _cpu, _nodes, _quiet })
            Add(option);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var config = LoadConfigReader.Read(parse.GetRequiredValue(_config));
        var schedule = parse.GetValue(_schedule);
        var outDir = parse.GetRequiredValue(_out);
        var ammoOverride = parse.GetValue(_ammo);
        var warmupSchedule = parse.GetValue(_warmup);
        var cpuTargets = parse.GetRequiredValue(_cpu).Prepend(new CpuTarget("tank", Environment.ProcessId)).ToList();
        var instances = parse.GetValue(_instances);
        var timeoutMs = parse.GetValue(_timeout);
        var ammoType = parse.GetValue(_ammoType);
        var overrides = new RunOverrides(
            Address: parse.GetValue(_address),
            Tag: parse.GetValue(_tag),
            Storage: parse.GetValue(_storage),
            Scenario: parse.GetValue(_scenario),
            Durability: parse.GetValue(_durability),
            LoadType: parse.GetValue(_loadType),
            AmmoType: ammoType?.Name(),
            Instances: instances ?? -1,
            Quiet: parse.GetValue(_quiet),
            Nodes: (int)(parse.GetValue(_nodes) ?? 0));

        config = config with
        {
            Address = overrides.Address ?? config.Address,
            LoadType = overrides.LoadType ?? config.LoadType,
            Schedule = schedule ?? config.Schedule,
            ScheduleSource = schedule is null ? config.ScheduleSource : "--schedule",
            AmmoFile = ammoOverride ?? config.AmmoFile,
            Uris = ammoOverride is null ? config.Uris : [],
            AmmoType = ammoType ?? config.AmmoType,
            Instances = instances is { } n ? (int)n : config.Instances,
            TimeoutMs = timeoutMs ?? config.TimeoutMs,
        };
        var plan = ScheduleParser.Parse(config.Schedule, config.ScheduleSource);
        var warmupPlan = warmupSchedule is null ? null : ScheduleParser.Parse(warmupSchedule, "--warmup");
        var ammo = RunInputs.LoadAmmo(config);
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
        RunInputs.CopyConfig(config.Path, outDir);
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
}
