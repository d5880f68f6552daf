using System.Diagnostics;
using System.Globalization;
using Crash.Catalogue;
using Crash.Check;
using Crash.Commands;

namespace Crash.Matrix;

/// <summary>
/// Runs a matrix: for every row a fresh service (what one run's fault left behind is not the
/// next run's), one run with the fault a third of the way in, its result judged against the
/// catalogue and written; then summary.json and summary.md.
/// </summary>
internal sealed class MatrixRunner(MatrixOptions options, StorageCatalogue catalogue)
{
    /// <summary>The control script failed (the service did not start): the matrix cannot go on.</summary>
    public const int ControlFailed = 3;

    /// <summary>
    /// 0; 1 when a run's API never came back or (with --check) a run lost more than its architecture
    /// promises; <see cref="ControlFailed"/> when the service could not be (re)started.
    /// </summary>
    public async Task<int> RunAsync(IReadOnlyList<MatrixRow> rows)
    {
        Directory.CreateDirectory(options.Out);
        var results = new List<RunResult>();
        var status = 0;
        foreach (var row in rows)
        {
            if (!Control("--restart-service")) return ControlFailed;
            var path = Path.Combine(options.Out, row.FileName);
            var (result, exitCode) = await CrashCommand.Execute(RunOptions(row, path)).ConfigureAwait(false);
            if (exitCode != 0)
            {
                Console.Error.WriteLine($"crash: {row.Label}: exit code {exitCode} (the API {(result is null ? "was not up before the run" : "did not come back")})");
                status = 1;
            }
            if (result is null) continue;
            result = result with { Fault = row.Fault.Name, Check = DurabilityCheck.Judge(result.Facts(), row.Fault, row.Storage) };
            result.Write(path);
            results.Add(result);
            Console.WriteLine(result.Summary());
        }
        Control("--stop-service");
        if (results.Count == 0)
        {
            Console.Error.WriteLine("crash: no run produced a result");
            return 1;
        }
        MatrixSummary.WriteJson(results, Path.Combine(options.Out, "summary.json"));
        var markdown = MatrixSummary.Markdown(results, catalogue);
        File.WriteAllText(Path.Combine(options.Out, "summary.md"), markdown);
        Console.WriteLine();
        Console.Write(markdown);
        Console.WriteLine();
        Console.Error.WriteLine($"crash: results: {options.Out} (summary.md, summary.json, one JSON per run)");

        if (options.Check)
        {
            var bad = results.Where(r => r.Check is { Ok: false }).ToList();
            if (bad.Count > 0)
            {
                Console.Error.WriteLine("crash: check: runs that lost more than their architecture promises, or whose API did not come back:");
                foreach (var r in bad) Console.Error.WriteLine($"  {r.Label}: {string.Join("; ", r.Check!.Problems)}");
                return 1;
            }
            Console.Error.WriteLine("crash: check: every run kept what its architecture promises for the fault, and the API came back after every fault");
        }
        return status;
    }

    /// <summary>The options of one run (checked: throws on a combination that cannot run).</summary>
    public CrashOptions RunOptions(MatrixRow row, string path)
    {
        var inject = string.Join(" ", new[] { options.Control, "--inject", row.Fault.Name }.Concat(row.Fault.Targets(row.Storage)).Select(ShellQuote.Word));
        return new CrashOptions
        {
            Url = options.Url,
            Storage = row.Storage.Name,
            Kind = row.Kind,
            Rate = options.Rate,
            Seconds = options.Seconds,
            FaultAt = options.FaultAt,
            FaultCommand = $"STOP_SECONDS={options.StopSeconds.ToString(CultureInfo.InvariantCulture)} {inject}",
            Items = options.Items,
            Locations = options.Locations,
            RecoverSeconds = options.RecoverSeconds,
            TruthStorage = row.TruthStorage,
            Out = path,
            Label = row.Label,
        }.Validated();
    }

    /// <summary>Runs the control script with one argument, its output passed through; false if it failed.</summary>
    private bool Control(string argument)
    {
        var start = new ProcessStartInfo(options.Control) { UseShellExecute = false, RedirectStandardInput = true };
        start.ArgumentList.Add(argument);
        using var process = Process.Start(start);
        if (process is null) return false;
        process.StandardInput.Close();
        process.WaitForExit();
        if (process.ExitCode == 0) return true;
        Console.Error.WriteLine($"crash: {options.Control} {argument} exited with {process.ExitCode}");
        return false;
    }
}
