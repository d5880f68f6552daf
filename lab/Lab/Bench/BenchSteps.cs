using System.Globalization;
using System.Text.Json;
using Tank.Ammo;
using Tank.Commands;
using Lab.Report;
using Harness.Processes;
using Tank.Ammo.Workloads;
using Tank.Runner;
using Harness;

namespace Lab.Bench;

/// <summary>The preparations of a measured run: ammo, author ids, queue fills, key-value prefills, settling, the capacity probe.</summary>
public sealed class BenchSteps(BenchContext context)
{
    private BenchProfile Profile => context.Profile;

    /// <summary>Writes a scenario's ammo (as <c>tank ammo</c>), never leaving a half-written file.</summary>
    public void Ammo(Scenario scenario, string storage, string address, long count, string file, KeyRange? authorIds = null, bool sequential = false,
        string? distribution = null, string? workload = null)
    {
        var options = new AmmoOptions
        {
            Scenario = scenario,
            Storage = storage,
            Host = address,
            Count = count,
            Seed = (ulong)context.Options.Seed,
            AuthorIdMin = authorIds?.First ?? 1,
            AuthorIdMax = authorIds?.Last ?? 1_000,
            Items = Profile.Items,
            Locations = Profile.Locations,
            Keys = Profile.KvKeys,
            Sequential = sequential,
            Distribution = distribution is null ? null : Tank.Ammo.Keys.KeyDistributions.Parse(distribution),
            ZipfTheta = context.Options.ZipfTheta,
            Workload = workload is null ? null : Tank.Ammo.Workloads.YcsbWorkloads.Parse(workload),
        };
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(file))!);
        var temp = file + ".tmp";
        using (var stream = new BufferedStream(File.Create(temp), 1 << 16))
            AmmoWriter.Write(stream, AmmoFormat.Phantom, AmmoGenerator.Generate(options));
        File.Move(temp, file, overwrite: true);
    }

    /// <summary>
    /// Authors for reads: a contiguous block of fresh ids written by the same runner, whose range is
    /// read back from one more save (ids are assigned in order).
    /// </summary>
    public KeyRange AuthorIds(string storage, BenchTarget target, Workspace work)
    {
        var ammo = work["prefill.ammo"];
        Ammo(Scenario.AuthorWrite, storage, target.Address, Profile.PrefillCount, ammo);
        Shooter.Fire(new Shot { Config = context.LoadYaml, AmmoFile = ammo, Address = target.Address, Schedule = Profile.PrefillSchedule, OutDir = work["prefill"] }, context.Cancel);
        var last = target.Client.SaveAuthor(storage);
        return new KeyRange(Math.Max(1, last - Profile.PrefillCount), last - 1);
    }

    /// <summary>
    /// Key-value reads find every key: key0..key(K-1) written once, in order, by 64 connections
    /// (tank/configs/kv-prefill.yaml: a closed loop over the file, once).
    /// </summary>
    public void KvPrefill(string storage, BenchTarget target, Workspace work)
    {
        var ammo = work["kv-prefill.ammo"];
        Ammo(Scenario.KvPut, storage, target.Address, Profile.KvKeys, ammo, sequential: true);
        var result = Shooter.Fire(new Shot { Config = context.KvPrefillYaml, AmmoFile = ammo, Address = target.Address, OutDir = work["kv-prefill"] }, context.Cancel);
        if (result.ExitCode != 0 || result.Errors > 0)
            throw new InvalidOperationException($"the key-value prefill of {storage} failed ({result.Errors} errors, exit {result.ExitCode})");
    }

    /// <summary>Tops a queue up to at least <paramref name="depth"/> messages (IntegrationService fill-queue, 64 writers); returns how many it added.</summary>
    public long FillQueue(string queue, long depth)
    {
        var output = context.ServiceTool("fill-queue", "--queue", queue, "--depth", depth.ToString(CultureInfo.InvariantCulture)).Trim();
        ToolLog.Write($"filled the {queue} queue: {output}");
        using var json = JsonDocument.Parse(output);
        return json.RootElement.GetProperty("depth_after").GetInt64() - json.RootElement.GetProperty("depth_before").GetInt64();
    }

    /// <summary>
    /// Work a previous step left to the servers' background (dirty pages and WAL after the seed or a
    /// write run, vinyl's dumps) must not land in the next measured run, or the run order would
    /// decide results: IntegrationService settle (CHECKPOINT, box.snapshot()). A server that does
    /// not settle is logged; the run is measured anyway.
    /// </summary>
    public void Settle(bool vacuum = false)
    {
        // Only the servers the run started: settle's servers that are not up would each be reported as not settling.
        string[] only = context.RunServers is null ? [] : ["--only", string.Join(',', context.RunServers)];
        var result = ProcessRunner.Run("dotnet", [context.Options.ServiceDll, "settle", .. vacuum ? ["--vacuum"] : Array.Empty<string>(), .. only], context.Cancel);
        if (result.ExitCode != 0 || result.Error.Length > 0) ToolLog.Write($"the servers did not all settle ({result.Error.Trim()}); measuring anyway");
    }

    /// <summary>
    /// Closed model at full load: the capacity estimate, and the hardest warm-up there is (pools
    /// opened to their limit, every code path compiled at its final tier, thread pool grown). Its
    /// meta.json is kept in <paramref name="keepMetaIn"/>; its phout is not (the report would take it for a run).
    /// </summary>
    public long Probe(string ammoFile, IReadOnlyList<AmmoRequest> ammo, BenchTarget target, Workspace work, string label, string? keepMetaIn = null)
    {
        var dir = work["probe"];
        Shooter.Fire(new Shot
        {
            Config = context.LoadYaml, AmmoFile = ammoFile, Ammo = ammo, Address = target.Address, OutDir = dir,
            Schedule = Profile.ProbeSchedule, Instances = Profile.ProbeInstances, Label = label + " probe",
        }, context.Cancel);
        if (keepMetaIn is not null)
        {
            Directory.CreateDirectory(keepMetaIn);
            File.Copy(Path.Combine(dir, "meta.json"), Path.Combine(keepMetaIn, "meta.json"), overwrite: true);
        }
        return Math.Max(10, Capacity(dir));
    }

    /// <summary>The steady rps of a closed-model run (as <c>lab capacity</c>).</summary>
    public static long Capacity(string dir)
    {
        var run = PhoutAnalyzer.Analyze(Path.Combine(dir, "phout.log"), "probe", "probe", RunMeta.TryRead(Path.Combine(dir, "meta.json")), sloMs: 10);
        return (long)Math.Round(CapacityEstimate.Of(run.Seconds));
    }
}
