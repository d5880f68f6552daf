using Harness.Catalogue;
using Crash.Check;
using Crash.Commands;
using Crash.Control;
using Crash.Rates;
using Harness.CommandLine;
using Harness.Processes;
using Tank.Runner;


namespace Crash.Matrix;

/// <summary>
/// Runs a matrix: the servers of power-loss rows on the power-loss layer, then for every row a
/// fresh service (what one run's fault left behind is not the next run's), one run with the fault
/// a third of the way in, its result judged against the catalogue and written; then summary.json
/// and summary.md.
/// </summary>
internal sealed class MatrixRunner(MatrixOptions options, StorageCatalogue catalogue)
{
    /// <summary>The service could not be (re)started, or the power-loss layer set up: the matrix cannot go on.</summary>
    public const int ControlFailed = 3;

    private readonly ServiceUnderTest _service = new(options.ServiceDir, options.Url, Path.Combine(options.Out, "service.log"));
    private readonly ServerControl _servers = new(options.Services);

    /// <summary>
    /// 0; 1 when a run's API never came back or (with --check) a run lost more than its architecture
    /// promises; <see cref="ControlFailed"/> when the service could not be (re)started.
    /// </summary>
    public async Task<int> RunAsync(IReadOnlyList<MatrixRow> rows)
    {
        Directory.CreateDirectory(options.Out);
        var layered = rows.Where(r => r.Fault.Promise == Promise.PowerLoss).SelectMany(r => r.Fault.Targets(r.Storage)).Distinct().Order(StringComparer.Ordinal).ToList();
        try
        {
            using var layer = PowerLossLayer.Put(options.Services, layered);
            using (_service)
            {
                return await RunRowsAsync(rows).ConfigureAwait(false);
            }
        }
        catch (InvalidOperationException e)
        {
            Console.Error.WriteLine($"crash: {e.Message}");
            return ControlFailed;
        }
    }

    /// <summary>
    /// What the runs left behind that the next user of these servers would trip over: a partition still in place
    /// (a rule that would cut the nodes off), and after failover rows, a node of a replicated server that is not
    /// running or is still stopped (SIGSTOP). Empty when the matrix leaves the servers as whole as it found them.
    /// </summary>
    internal static IReadOnlyList<string> LeftBehind(ServerControl servers, IReadOnlyList<MatrixRow> rows, IReadOnlySet<string>? released = null)
    {
        var problems = new List<string>();
        if (rows.Any(r => r.Fault.Name.StartsWith("primary-partition", StringComparison.Ordinal)) && servers.Partitions() is { Count: > 0 } left)
        {
            problems.Add($"partitions left in place after the runs: {string.Join(", ", left)} (script/services heal NAME removes them)");
        }
        foreach (var server in FailoverTargets(rows).Where(s => released?.Contains(s) != true))
        {
            problems.AddRange(NotWhole(servers, server));
        }
        return problems;
    }

    /// <summary>The servers failover rows strike, each once.</summary>
    private static IEnumerable<string> FailoverTargets(IEnumerable<MatrixRow> rows) =>
        rows.Where(r => r.Fault.Promise == Promise.Failover).SelectMany(r => r.Fault.Targets(r.Storage)).Distinct().Order(StringComparer.Ordinal);

    /// <summary>What keeps a replicated server from being whole after failover runs: a node not running, or one still stopped.</summary>
    private static IReadOnlyList<string> NotWhole(ServerControl servers, string server)
    {
        IReadOnlyList<int> pids;
        try
        {
            pids = servers.Pids(server);
        }
        catch (InvalidOperationException e)
        {
            return [$"{server}: a node is not running after the runs (script/services pid {server}: {e.Message.ReplaceLineEndings(" ")})"];
        }
        return pids.Where(pid => Signals.State(pid) == 'T').ToList() is { Count: > 0 } stopped
            ? [$"{server}: still stopped (SIGSTOP) after the runs: pid {string.Join(", ", stopped)}"]
            : [];
    }

    /// <summary>The servers and caches a row's architecture runs on (script/services names): the matrix brings them up before its run.</summary>
    internal static IReadOnlyList<string> Needs(MatrixRow row) => [.. row.Storage.Servers.Concat(row.Storage.Caches).Distinct(StringComparer.Ordinal)];

    /// <summary>
    /// The servers of <paramref name="release"/> to stop once row <paramref name="index"/> has run: those it ran on that no
    /// later row needs. Each architecture then runs beside only the servers the rows still to come brought up, not
    /// every topology of the matrix (idle Erlang and Go runtimes took the CPU a failover needs).
    /// </summary>
    internal static IReadOnlyList<string> Releasable(IReadOnlyList<MatrixRow> rows, int index, IReadOnlySet<string> release)
    {
        var later = rows.Skip(index + 1).SelectMany(Needs).ToHashSet(StringComparer.Ordinal);
        return [.. Needs(rows[index]).Where(s => release.Contains(s) && !later.Contains(s))];
    }

    private async Task<int> RunRowsAsync(IReadOnlyList<MatrixRow> rows)
    {
        var results = new List<RunResult>();
        var notRun = new List<string>();
        // Servers that did not come back whole before a run: every later run on them is not run either (each `up` would wait
        // out its whole timeout again), and the matrix goes on with the others.
        var broken = new SortedSet<string>(StringComparer.Ordinal);
        var status = 0;
        var released = new SortedSet<string>(StringComparer.Ordinal);
        var serversLog = new FaultLog(Path.Combine(options.Out, "servers.log"));
        for (var index = 0; index < rows.Count; index++)
        {
            var row = rows[index];
            // After the row, its servers that no later row needs go down, if the matrix may stop them (--release).
            try
            {
                status = Math.Max(status, await RunRowAsync(row).ConfigureAwait(false));
            }
            finally
            {
                if (Releasable(rows, index, options.Release) is { Count: > 0 } done)
                {
                    foreach (var problem in done.Where(s => FailoverTargets(rows.Take(index + 1)).Contains(s)).SelectMany(s => NotWhole(_servers, s)))
                    {
                        Console.Error.WriteLine($"crash: {problem}");
                        status = 1;
                    }
                    Console.Error.WriteLine($"crash: no later run needs {string.Join(' ', done)}: stopping {(done.Count == 1 ? "it" : "them")}");
                    if (!_servers.Down(done, serversLog))
                        Console.Error.WriteLine($"crash: script/services down {string.Join(' ', done)} failed (see servers.log); they stay up beside the later runs");
                    released.UnionWith(done);
                }
            }
        }

        async Task<int> RunRowAsync(MatrixRow row)
        {
            var rc = 0;
            var path = Path.Combine(options.Out, row.FileName);
            var run = RunOptions(row, path);
            Console.Error.WriteLine($"crash: {row.Label}: {MatrixCommand.RateAndLength(run)}");
            // Every run starts from whole servers: a fault may leave them recovering after its run ended (a failover
            // engine demoting a zombie primary, Sentinels out of TILT mode 30 s after their node was stopped); and the
            // servers and caches of its architecture are up, started here if no earlier row needed them.
            var targets = Needs(row);
            if (targets.Any(broken.Contains) || !_servers.Up(targets, serversLog))
            {
                var why = targets.Any(broken.Contains)
                    ? $"{string.Join(' ', targets.Where(broken.Contains))} did not come back whole before an earlier run"
                    : $"script/services up {string.Join(' ', targets)} failed (see servers.log)";
                Console.Error.WriteLine($"crash: {row.Label}: not run: {why}");
                notRun.Add($"{row.Label}: {why}");
                broken.UnionWith(targets);
                return 1;
            }
            if (row.StartsFromAnEmptyQueue)
                Console.Error.WriteLine($"crash: {row.Label}: emptied the queue: {_service.EmptyQueue(row.Storage.Name)}");
            _service.Restart();
            var (result, exitCode) = await CrashCommand.Execute(run).ConfigureAwait(false);
            if (exitCode != 0)
            {
                Console.Error.WriteLine($"crash: {row.Label}: exit code {exitCode} (the API {(result is null ? "was not up before the run" : "did not come back")})");
                rc = 1;
            }
            if (result is null) return rc;
            result = result with { Fault = row.Fault.Name, Replicated = row.Storage.Replication is not null, Check = DurabilityCheck.Judge(result.Facts(), row.Fault, row.Storage) };
            result.Write(path);
            if (result.Timeline is { } timeline)
                File.WriteAllText(Path.Combine(options.Out, MatrixSummary.ChartFile(row.Label)), Timeline.TimelineSvg.Render(timeline, row.Label));
            results.Add(result);
            Console.WriteLine(result.Summary());
            return rc;
        }

        _service.Stop();
        foreach (var problem in LeftBehind(_servers, rows, released))
        {
            Console.Error.WriteLine($"crash: {problem}");
            status = 1;
        }
        if (results.Count == 0)
        {
            Console.Error.WriteLine("crash: no run produced a result");
            return 1;
        }
        MatrixSummary.WriteJson(results, Path.Combine(options.Out, "summary.json"));
        var markdown = MatrixSummary.Markdown(results, catalogue, notRun);
        File.WriteAllText(Path.Combine(options.Out, "summary.md"), markdown);
        Console.WriteLine();
        Console.Write(markdown);
        Console.WriteLine();
        Console.Error.WriteLine($"crash: results: {options.Out} (summary.md, summary.json, one JSON per run)");

        if (options.Check)
        {
            foreach (var r in results.Where(r => r.Check is { Ok: true } c && (c.NotChecked is not null || c.Notes.Count > 0)))
                Console.Error.WriteLine($"crash: check: {r.Label}: passes: {MatrixSummary.CheckCell(r.Check!)}");
            var bad = results.Where(r => r.Check is { Ok: false }).ToList();
            if (bad.Count > 0)
            {
                Console.Error.WriteLine("crash: check: runs that lost more than their architecture promises, or whose API did not come back:");
                foreach (var r in bad) Console.Error.WriteLine($"  {r.Label}: {string.Join("; ", r.Check!.Problems)}");
                return 1;
            }
            if (notRun.Count > 0)
            {
                Console.Error.WriteLine($"crash: check: {notRun.Count} runs could not start, their servers not whole after the run before: {string.Join("; ", notRun)}");
                return 1;
            }
            var notChecked = results.Count(r => r.Check?.NotChecked is not null);
            Console.Error.WriteLine(notChecked == 0
                ? "crash: check: every run kept what its architecture promises for the fault, and the API came back after every fault"
                : $"crash: check: no run lost more than its architecture promises, but {notChecked} could not test its promise (not checked, above); the API came back after every fault");
        }
        return status;
    }

    /// <summary>The options of one run at its rate and length (checked: throws on a combination that cannot run).</summary>
    public CrashOptions RunOptions(MatrixRow row, string path)
    {
        var targets = row.Fault.Targets(row.Storage);
        var rate = options.RateOf(row);
        var length = options.LengthOf(row);
        return PlannedRun.Options(options.Rates, rate, length, row.Label, new CrashOptions
        {
            Url = options.Url,
            Storage = row.Storage.Name,
            Kind = row.Kind,
            Rate = rate.Rate,
            Seconds = length.Seconds,
            FaultAt = length.FaultAt,
            FaultCommand = string.Join(' ', [row.Fault.Name, .. targets.DefaultIfEmpty("the service")]),
            FaultAction = log => row.Fault.Run(new FaultContext(_servers, _service, targets, row.Fault.StopSeconds(row.Storage, options.StopSeconds), log)),
            // A failover is over only once the failover engine has demoted the old primary and discarded what it took
            // in meanwhile: the read-back before that would read writes that are about to go.
            Settle = row.Fault.Promise == Promise.Failover ? () => _servers.Up(targets, new FaultLog(Path.Combine(options.Out, "servers.log"))) : null,
            Items = options.Items,
            Locations = options.Locations,
            RecoverSeconds = options.RecoverSeconds,
            SloMs = options.SloMs,
            TruthStorage = row.TruthStorage,
            Out = path,
            Label = row.Label,
            EndEarly = !options.FullLength,
        });
    }
}
