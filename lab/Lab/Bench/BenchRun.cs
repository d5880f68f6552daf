using IntegrationService.Http;
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
        var (loaded, profileFiles) = ProfileFile.Load(options.Root, options.Quick, options.Profile);
        var profile = options.Repeat is { } repeat ? loaded with { Repeats = repeat } : loaded;
        var matrix = MatrixOf(options, catalogue, profile);
        foreach (var entry in matrix.LeaveOutAbsent)
            ToolLog.Write($"leave_out: '{entry}' names an architecture this catalogue does not offer ({string.Join(", ", catalogue.Select(a => a.Name))}): nothing to leave out");
        foreach (var entry in matrix.AlsoRunAbsent)
            ToolLog.Write($"also_run: '{entry}' names an architecture this catalogue does not offer ({string.Join(", ", catalogue.Select(a => a.Name))}): nothing to add");
        if (matrix.CrossChecks.Count > 0 && !ProcessRunner.OnPath("wrk")) throw new InvalidOperationException("wrk is missing: run script/bootstrap");
        if (options.Pin && options.ClusterNodes >= 2) throw new InvalidOperationException("--pin places the single service and its servers; a cluster's nodes are not placed: run --cluster without --pin");
        var stamp = DateTime.UtcNow.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture);
        var runDir = Path.Combine(options.Root, "reports", stamp);
        Directory.CreateDirectory(Path.Combine(runDir, "runs"));
        // The method as run, beside the results: the files merged and --repeat applied.
        File.WriteAllText(Path.Combine(runDir, "profile.yaml"),
            $"# read from {string.Join(", then ", profileFiles.Select(f => Path.GetRelativePath(options.Root, f)))}{(options.Repeat is null ? "" : $"; repeats from --repeat {options.Repeat}")}\n" + ProfileFile.Render(profile));
        var context = new BenchContext(options, profile, catalogue, runDir, cancel) { RunServers = matrix.CpuServers };
        var steps = new BenchSteps(context);

        // The item data set goes into the item backends of the item cells only: a run without them writes none.
        var seeded = matrix.SeedBackends(catalogue);
        if (seeded.Count > 0)
        {
            ToolLog.Write($"seeding {profile.Locations} locations and {profile.Items} items into {string.Join(", ", seeded)}");
            context.ServiceTool("seed", "--locations", profile.Locations.ToString(CultureInfo.InvariantCulture), "--items", profile.Items.ToString(CultureInfo.InvariantCulture),
                "--only", string.Join(',', seeded));
        }
        steps.Settle(vacuum: matrix.CpuServers.Contains("postgres"));

        // Disposed after the service has stopped: every process back in its group, the groups removed.
        using var isolation = CpuIsolation.Start(options);
        var baseUrl = $"http://127.0.0.1:{options.Port}";
        ToolLog.Write($"starting the service on {baseUrl}");
        var log = Path.Combine(runDir, "service.log");
        // Ready when the run's own architectures are: script/bench started only their servers.
        using var service = ServiceProcess.Start(options.ServiceDll, baseUrl, log, new ServiceStartOptions { Arguments = matrix.ServiceArguments });
        service.WaitAnswering("/health", TimeSpan.FromSeconds(60), cancel);
        using var client = new ServiceClient(baseUrl);
        File.WriteAllText(Path.Combine(runDir, "storages.json"), client.Get("/storages"));

        var target = new BenchTarget($"127.0.0.1:{options.Port}", client, CpuTargets.ForService(service.Pid, matrix.CpuServers, options.Root, cancel));
        isolation.Place(target.Cpu, options.Root, cancel);
        var cells = matrix.AllCells(options.ClusterNodes).ToList();
        ToolLog.Write($"{cells.Count} cells, about {BenchProgress.Format(cells.Count * PlannedSecondsPerCell(profile))}: {string.Join(", ", cells.Select(c => c.Label))}");
        var progress = new BenchProgress(cells.Count, PlannedSecondsPerCell(profile));
        var runner = new CellRunner(context, steps);
        var failedCells = MeasureInterleaved(context, runner, matrix.Cells, target, progress);
        if (matrix.ClusterStores.Count > 0) new ClusterPhase(context, steps, runner, progress).Run(matrix);
        var crossCheck = new WrkCrossCheck(context, steps);
        foreach (var check in matrix.CrossChecks) crossCheck.Run(check, target);
        BenchReport.Write(context, stamp);
        if (failedCells > 0) throw new InvalidOperationException($"{failedCells} cell(s) had repetitions that could not run: the report in {runDir} names them");
    }

    /// <summary>
    /// The servers (script/services names) the run of <paramref name="options"/> needs, each once:
    /// those of every architecture it measures, caches included. script/bench starts these and no
    /// others, so that no idle cluster takes CPU beside the cells (<c>lab bench --list-servers</c>).
    /// </summary>
    public static IReadOnlyList<string> Servers(BenchOptions options, CancellationToken cancel)
    {
        var catalogue = StorageCatalogue.FromService(options.ServiceDll, cancel).Entries;
        var (loaded, _) = ProfileFile.Load(options.Root, options.Quick, options.Profile);
        return MatrixOf(options, catalogue, loaded).CpuServers;
    }

    private static BenchMatrix MatrixOf(BenchOptions options, IReadOnlyList<StorageDescription> catalogue, BenchProfile profile) =>
        BenchMatrix.Build(catalogue, options.Storages, options.Scenarios, options.ClusterNodes, options.CrossCheck, options.Quick,
            options.Workload, options.Distribution, profile.LeftOutCells, profile.AddedCells);

    /// <summary>
    /// Every cell prepared in catalogue order, then repetition k of every cell in the round's
    /// shuffled order (<see cref="RoundOrder"/>), then k+1; the orders are logged and kept in
    /// order.json. Each cell's capacity.json is written once its last repetition is done. Returns
    /// the number of cells with a repetition that could not run.
    /// </summary>
    private static int MeasureInterleaved(BenchContext context, CellRunner runner, IReadOnlyList<BenchCell> cells, BenchTarget target, BenchProgress progress)
    {
        var prepared = new List<PreparedCell>();
        try
        {
            foreach (var cell in cells)
                prepared.Add(runner.Prepare(cell, target, Path.Combine(context.RunDir, cell.RelativeDir), progress.Next(cell)));
            var rounds = new List<object>();
            for (var round = 1; round <= context.Profile.Repeats; round++)
            {
                var order = RoundOrder.Of(prepared, context.Profile.ShuffleSeed, round);
                ToolLog.Write($"repetition {round} of {context.Profile.Repeats} (shuffle seed {context.Profile.ShuffleSeed}): {string.Join(", ", order.Select(c => c.Cell.Label))}");
                rounds.Add(new { round, order = order.Select(c => new { storage = c.Cell.Storage, scenario = c.Cell.Name }) });
                for (var i = 0; i < order.Count; i++)
                {
                    progress.Repetition(round, i + 1, order.Count, context.Profile.Repeats, context.Profile.SecondsPerRepetition);
                    try
                    {
                        runner.Repeat(order[i], round, i + 1);
                    }
                    catch (Exception e) when (e is not OperationCanceledException)
                    {
                        // One repetition that cannot run (a server out of memory, a reset that failed)
                        // does not throw away the others: it is named in the cell's figures and the run fails at its end.
                        var why = e.Message.Split('\n')[0].Trim();
                        if (why.Length > 300) why = why[..300] + "…";
                        ToolLog.Write($"{order[i].Label} repetition {round}: could not run: {why}");
                        order[i].Failures.Add($"repetition {round} could not run: {why}");
                    }
                }
            }
            File.WriteAllText(Path.Combine(context.RunDir, "order.json"),
                System.Text.Json.JsonSerializer.Serialize(new { shuffle_seed = context.Profile.ShuffleSeed, rounds }, new System.Text.Json.JsonSerializerOptions { WriteIndented = true }) + "\n");
            foreach (var cell in prepared) runner.Finish(cell);
            return prepared.Count(c => c.Failures.Count > 0);
        }
        finally
        {
            foreach (var cell in prepared) cell.Dispose();
        }
    }

    // A cell's preparation (its schedules plus about 10 s of ammo, prefills, settling) and its repetitions.
    public static double PlannedSecondsPerCell(BenchProfile profile) =>
        ScheduleParser.Parse(profile.ProbeSchedule, "probe").DurationMs / 1000.0 + profile.WarmupSeconds + profile.RampSeconds + 10
        + profile.Repeats * profile.SecondsPerRepetition;
}
