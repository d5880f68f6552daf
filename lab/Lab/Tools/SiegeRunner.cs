using Harness.Catalogue;
using System.Globalization;
using System.Text;

namespace Lab.Tools;

/// <summary>
/// Runs the original PHP study's siege matrix against the queue routes of a running service: for
/// each queue and concurrency, <c>siege -cC -tSS URL/write/QUEUE</c>, then the same for
/// <c>/read/QUEUE</c>, with siege's default delay (no <c>-b</c>, as the original). Each run's
/// output goes to <c>raw/</c> with the queue's depth before and after; the table to
/// <c>summary.md</c> (see tank/README.md, "lab siege").
/// </summary>
public sealed class SiegeRunner(SiegeSettings settings, TextWriter output, TextWriter log)
{
    /// <summary>Beyond its own -t, siege gets this long to print its statistics and exit before it is killed.</summary>
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(30);

    public async Task<int> RunAsync()
    {
        var version = await SiegeVersionAsync();
        var queues = SiegeMatrix.Queues((await StorageCatalogue.FetchAsync(settings.Url, CancellationToken.None)).Entries, settings.Queues);
        var maxConcurrency = settings.Concurrencies.Max();
        if (OpenFilesLimit.Current() is { } limit && limit < maxConcurrency + 100)
            throw new ToolException($"the open-files limit is {limit}, too low for -c{maxConcurrency} (raise ulimit -n)");

        using var depth = new QueueDepthProbe(settings.Url);
        foreach (var queue in queues)
        {
            if (await depth.DepthAsync(queue) is null)
                throw new ToolException($"GET {settings.Url}/depth/{queue} did not answer 200: does this service have the queue routes, and is {queue} up?");
        }

        var dir = Path.GetFullPath(settings.Out);
        Directory.CreateDirectory(Path.Combine(dir, "raw"));
        var rc = Path.Combine(dir, "siegerc");
        await File.WriteAllTextAsync(rc, SiegeRc.Text(maxConcurrency, settings.Connection));
        var stamp = DateTime.UtcNow.ToString("yyyyMMdd'T'HHmmss'Z'", CultureInfo.InvariantCulture);
        await File.WriteAllTextAsync(Path.Combine(dir, "about.md"), About(stamp, version, queues));

        // siege writes $HOME/.siege/siege.conf when it is missing: it runs with HOME in a
        // temporary directory, so the user's home is left alone.
        var home = Directory.CreateTempSubdirectory("tank-siege-");
        try
        {
            var environment = new Dictionary<string, string> { ["HOME"] = home.FullName, ["SIEGERC"] = rc };
            var n = 0;
            foreach (var queue in queues)
            foreach (var concurrency in settings.Concurrencies)
            foreach (var op in (string[])["write", "read"])
            {
                n++;
                var raw = Path.Combine(dir, "raw", $"{n:000}-{queue}-{op}-c{concurrency}.txt");
                await RunOneAsync(raw, queue, op, concurrency, depth, environment);
            }
        }
        finally
        {
            home.Delete(recursive: true);
        }
        return await SiegeReport.WriteAsync(dir, output, log);
    }

    private async Task RunOneAsync(string raw, string queue, string op, int concurrency, QueueDepthProbe depth, Dictionary<string, string> environment)
    {
        var target = $"{settings.Url}/{op}/{queue}";
        string[] args = [$"-c{concurrency}", $"-t{settings.Seconds}S", target];
        var command = $"siege {string.Join(' ', args)}";
        await log.WriteLineAsync($"==> {command}");
        var header = SiegeRawFile.Header(command, queue, op, concurrency, await depth.DepthAsync(queue));
        var deadline = TimeSpan.FromSeconds(settings.Seconds) + Grace;
        var run = await ToolProcess.RunAsync("siege", args, deadline, environment);
        if (run.ExitCode == ToolRun.Killed && !SiegeOutputParser.Parse(run.Output).Printed)
        {
            // Killed before it printed its statistics: once more, keeping the first attempt.
            await log.WriteLineAsync("==> siege hung before printing its statistics (killed): running it once more");
            var attempt = Path.ChangeExtension(raw, ".attempt1.log");
            await File.WriteAllTextAsync(attempt, header + run.Output);
            header += $"# the first attempt hung and was killed: see {Path.GetFileName(attempt)}\n";
            run = await ToolProcess.RunAsync("siege", args, deadline, environment);
        }
        await File.WriteAllTextAsync(raw, header + run.Output + SiegeRawFile.Footer(await depth.DepthAsync(queue), run.ExitCode));
    }

    private string About(string stamp, string version, IReadOnlyList<string> queues) =>
        new StringBuilder()
            .Append(CultureInfo.InvariantCulture, $"# siege matrix — {stamp}\n\n")
            .Append(CultureInfo.InvariantCulture, $"{version} against {settings.Url}; queues {string.Join(' ', queues)}; concurrency {string.Join(' ', settings.Concurrencies)}; ")
            .Append(CultureInfo.InvariantCulture, $"{settings.Seconds} s each, /write then /read;\n")
            .Append(CultureInfo.InvariantCulture, $"siege's default delay (no -b); connection {settings.Connection}; rc file: siegerc. ")
            .Append(CultureInfo.InvariantCulture, $"{Environment.ProcessorCount} cores; service, servers and siege share this machine.\n\n")
            .ToString();

    /// <summary>siege's version line (<c>SIEGE 4.0.7</c>); its absence means siege is not installed.</summary>
    private static async Task<string> SiegeVersionAsync()
    {
        var home = Directory.CreateTempSubdirectory("tank-siege-");
        try
        {
            var run = await ToolProcess.RunAsync("siege", ["--version"], TimeSpan.FromSeconds(10), new Dictionary<string, string> { ["HOME"] = home.FullName });
            return run.Output.Split('\n').FirstOrDefault(l => l.StartsWith("SIEGE ", StringComparison.Ordinal))
                ?? throw new ToolException("siege is missing: run script/bootstrap (Debian package siege)");
        }
        finally
        {
            home.Delete(recursive: true);
        }
    }
}
