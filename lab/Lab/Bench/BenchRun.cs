using Harness.Catalogue;
using System.Globalization;
using Tank.Schedule;
using Harness.Processes;
using Harness;

namespace Lab.Bench;

/// <summary>
/// <c>lab bench</c>'s whole run, in script/bench's order: the matrix from the catalogue, the data
/// set seeded and the servers settled, the service started on its own port, every cell measured
/// (then the cluster's, then the wrk cross-check), and the report. The service and a cluster are
/// stopped however the run ends; starting and stopping the servers is script/bench's.
/// </summary>
public static class BenchRun
{
    public static void Run(BenchOptions options, CancellationToken cancel)
    {
        var catalogue = StorageCatalogue.FromService(options.ServiceDll, cancel).Entries;
        var matrix = BenchMatrix.Build(catalogue, options.Storages, options.Scenarios, options.ClusterNodes, options.CrossCheck, options.Quick,
            options.Workload, options.Distribution);
        if (matrix.CrossChecks.Count > 0 && !ProcessRunner.OnPath("wrk")) throw new InvalidOperationException("wrk is missing: run script/bootstrap");
        var profile = BenchProfile.For(options.Quick) is var p && options.Repeat is { } repeat ? p with { Repeats = repeat } : BenchProfile.For(options.Quick);
        var stamp = DateTime.UtcNow.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture);
        var runDir = Path.Combine(options.Root, "reports", stamp);
        Directory.CreateDirectory(Path.Combine(runDir, "runs"));
        var context = new BenchContext(options, profile, catalogue, runDir, cancel);
        var steps = new BenchSteps(context);

        ToolLog.Write($"seeding {profile.Locations} locations and {profile.Items} items into every item architecture");
        context.ServiceTool("seed", "--locations", profile.Locations.ToString(CultureInfo.InvariantCulture), "--items", profile.Items.ToString(CultureInfo.InvariantCulture));
        steps.Settle(vacuum: true);

        var baseUrl = $"http://127.0.0.1:{options.Port}";
        ToolLog.Write($"starting the service on {baseUrl}");
        var log = Path.Combine(runDir, "service.log");
        using var service = ServiceProcess.Start(options.ServiceDll, baseUrl, log);
        service.WaitAnswering("/health", TimeSpan.FromSeconds(60), cancel);
        using var client = new ServiceClient(baseUrl);
        File.WriteAllText(Path.Combine(runDir, "storages.json"), client.Get("/storages"));

        var target = new BenchTarget($"127.0.0.1:{options.Port}", client, CpuTargets.ForService(service.Pid, matrix.CpuServers, options.Root, cancel));
        var cells = matrix.AllCells(options.ClusterNodes).ToList();
        ToolLog.Write($"{cells.Count} cells, about {BenchProgress.Format(cells.Count * PlannedSecondsPerCell(profile))}: {string.Join(", ", cells.Select(c => c.Label))}");
        var progress = new BenchProgress(cells.Count, PlannedSecondsPerCell(profile));
        var runner = new CellRunner(context, steps);
        foreach (var cell in matrix.Cells)
            runner.Measure(cell, target, Path.Combine(runDir, cell.RelativeDir), progress.Next(cell));
        if (matrix.ClusterStores.Count > 0) new ClusterPhase(context, steps, runner, progress).Run(matrix);
        var crossCheck = new WrkCrossCheck(context, steps);
        foreach (var check in matrix.CrossChecks) crossCheck.Run(check, target);
        BenchReport.Write(context, stamp);
    }

    // Before the first cell is done: its schedules plus about 10 s of preparation (ammo, prefills, settling).
    public static double PlannedSecondsPerCell(BenchProfile profile) =>
        ScheduleParser.Parse(profile.ProbeSchedule, "probe").DurationMs / 1000.0 + profile.WarmupSeconds + profile.RampSeconds
        + Enumerable.Range(1, profile.Repeats).Sum(repeat =>
            profile.StepsOf(repeat) * (profile.HoldSeconds + profile.HoldWarmupSeconds) + profile.ConfirmSeconds + profile.HoldWarmupSeconds) + 10;
}
