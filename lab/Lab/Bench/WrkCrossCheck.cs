using System.Globalization;
using System.Text.Json;
using Tank.Commands;
using Tank.Cpu;
using Lab.Report;
using Harness.Processes;
using Tank.Ammo;
using Harness;

namespace Lab.Bench;

/// <summary>
/// One endpoint per architecture under wrk and under our runner's closed model: the same
/// connections, duration and ids, one right after the other on a warmed service. wrk's side goes
/// to crosscheck/&lt;storage&gt;/wrk.json (with wrk's own CPU), ours to crosscheck/&lt;storage&gt;/tank;
/// the report compares them (they must agree within 15 %).
/// </summary>
public sealed class WrkCrossCheck(BenchContext context, BenchSteps steps)
{
    public void Run(CrossCheckTarget check, BenchTarget target)
    {
        var profile = context.Profile;
        var connections = profile.CrossCheckConnections;
        var seconds = profile.CrossCheckSeconds;
        var dir = Path.Combine(context.RunDir, "crosscheck", check.Storage);
        Directory.CreateDirectory(dir);
        using var work = new Workspace();
        var ids = check.NeedsAuthors ? steps.AuthorIds(check.Storage, target, work) : new KeyRange(1, profile.Items);
        var ammoFile = Path.Combine(dir, "ammo.txt");
        steps.Ammo(check.Scenario, check.Storage, target.Address, profile.AmmoCount, ammoFile, check.NeedsAuthors ? ids : null);
        Shooter.Fire(new Shot { Config = context.LoadYaml, AmmoFile = ammoFile, Address = target.Address, OutDir = work["warmup"], Schedule = $"const({connections}, 1s) const(0, 2s)", Instances = connections }, context.Cancel);

        string[] command = ["wrk", "-t1", $"-c{connections}", $"-d{seconds}s", "-s", Path.Combine(context.Options.Root, "tank", "wrk", "ids.lua"), target.Client.BaseUrl,
            "--", check.Template, ids.First.ToString(CultureInfo.InvariantCulture), ids.Last.ToString(CultureInfo.InvariantCulture)];
        // wrk's CPU: once reaped, a child's CPU is added to ours as cutime+cstime.
        var before = ReapedTicks();
        var wrk = ProcessRunner.Run(command[0], command[1..], context.Cancel);
        var ticks = ReapedTicks() - before;
        File.WriteAllText(Path.Combine(dir, "wrk.txt"), wrk.Output + wrk.Error);
        var parsed = WrkOutput.Parse(wrk.Output) ?? throw new InvalidOperationException($"wrk gave no rate for {check.Storage}: see {dir}/wrk.txt");

        Shooter.Fire(new Shot
        {
            Config = context.LoadYaml, AmmoFile = ammoFile, Address = target.Address, OutDir = Path.Combine(dir, "tank"),
            Schedule = $"const({connections}, 1s) const(0, {seconds - 1}s)", Instances = connections,
            Storage = check.Storage, Scenario = check.Scenario.Name(), Cpu = target.Cpu, Label = $"cross-check {check.Storage}",
        }, context.Cancel);
        var root = context.Options.Root.TrimEnd('/') + "/";
        var wrkJson = new Dictionary<string, object>
        {
            ["storage"] = check.Storage,
            ["scenario"] = check.Scenario.Name(),
            ["endpoint"] = "GET " + check.Template.Replace("{id}", "…", StringComparison.Ordinal),
            ["connections"] = connections,
            ["duration_s"] = seconds,
            ["requests"] = parsed.Requests,
            ["rps"] = parsed.Rps,
            ["cpu_seconds"] = ticks / 100.0,
            ["command"] = string.Join(' ', command).Replace(root, "", StringComparison.Ordinal),
        };
        File.WriteAllText(Path.Combine(dir, "wrk.json"), JsonSerializer.Serialize(wrkJson, new JsonSerializerOptions { WriteIndented = true }) + "\n");
        ToolLog.Write($"cross-check {check.Storage} {check.Scenario.Name()}: wrk {parsed.Rps} rps, tank {BenchSteps.Capacity(Path.Combine(dir, "tank"))} rps ({connections} connections, {seconds} s each)");
        CheckRate(check, target, ids, dir, root);
    }

    /// <summary>The cell's confirmed rate sent again by wrk, paced (tank/wrk/paced.lua), for as long as a confirmation.</summary>
    private void CheckRate(CrossCheckTarget check, BenchTarget target, KeyRange ids, string dir, string root)
    {
        var confirmed = CapacityFile.TryRead(Path.Combine(context.RunDir, "runs", check.Storage, check.Scenario.Name()))?.ConfirmedRps ?? 0;
        if (confirmed <= 0) return;
        var seconds = context.Profile.ConfirmSeconds;
        string[] command = ["wrk", "-t1", $"-c{context.Profile.CrossCheckConnections}", $"-d{seconds}s", "--latency", "-s", Path.Combine(context.Options.Root, "tank", "wrk", "paced.lua"),
            target.Client.BaseUrl, "--", check.Template, ids.First.ToString(CultureInfo.InvariantCulture), ids.Last.ToString(CultureInfo.InvariantCulture),
            confirmed.ToString(CultureInfo.InvariantCulture), "1"];
        var wrk = ProcessRunner.Run(command[0], command[1..], context.Cancel);
        File.WriteAllText(Path.Combine(dir, "wrk-rate.txt"), wrk.Output + wrk.Error);
        var parsed = WrkOutput.Parse(wrk.Output);
        var p99 = WrkOutput.P99Ms(wrk.Output);
        if (parsed is null || p99 is null) throw new InvalidOperationException($"wrk gave no rate or p99 for {check.Storage}: see {dir}/wrk-rate.txt");
        var rate = new RateCheck(check.Storage, check.Scenario.Name(), confirmed, parsed.Value.Rps, p99.Value, context.Options.SloMs, seconds,
            string.Join(' ', command).Replace(root, "", StringComparison.Ordinal));
        CrossCheckReader.WriteRate(dir, rate);
        ToolLog.Write($"rate check {check.Storage} {check.Scenario.Name()}: confirmed {confirmed} rps; wrk paced at it sent {parsed.Value.Rps} rps, p99 {p99:F2} ms: {rate.Verdict()}");
    }

    private static long ReapedTicks()
    {
        var stat = ProcStat.Parse(File.ReadAllText("/proc/self/stat"));
        return stat.ChildUserTicks + stat.ChildSystemTicks;
    }
}
