using Harness.Catalogue;
using System.Globalization;

namespace Lab.Tools;

/// <summary>
/// Re-runs the original Go benchmark's ApacheBench commands against every item architecture of a
/// running service (from its catalogue): a warm-up (connections, prepared statements, JIT), then
/// <c>ab -k -c C -n N</c> reads of <c>GET /item/{id}/locations?storage=S</c> and POST writes of
/// the original's body to the same URL. Prints the table; exit code 1 when ab gave up on a run.
/// </summary>
public sealed class AbRunner(AbSettings settings, TextWriter output, TextWriter log)
{
    /// <summary>A hard limit on one ab run (ab's own per-request timeout is 30 s).</summary>
    public static readonly TimeSpan Deadline = TimeSpan.FromMinutes(10);

    public async Task<int> RunAsync()
    {
        if ((await ToolProcess.RunAsync("ab", ["-V"], TimeSpan.FromSeconds(10))).ExitCode != 0)
            throw new ToolException("ab is missing: run script/bootstrap (package apache2-utils)");
        var storages = AbMatrix.Storages((await StorageCatalogue.FetchAsync(settings.Url, CancellationToken.None)).Entries, settings.Storages);
        var body = Path.GetTempFileName();
        try
        {
            await File.WriteAllTextAsync(body, AbSettings.Body);
            string[] common = ["-k", "-c", Text(settings.Concurrency), "-n", Text(settings.Requests)];
            var rows = new List<AbRow>();
            foreach (var storage in storages)
            {
                var url = $"{settings.Url}/item/{Text(settings.Item)}/locations?storage={Uri.EscapeDataString(storage)}";
                await log.WriteLineAsync($"==> ab {storage}");
                await ToolProcess.RunAsync("ab", ["-k", "-c", "10", "-n", "200", "-q", url], Deadline); // warm-up, its result unused
                var read = await ToolProcess.RunAsync("ab", [.. common, url], Deadline);
                var write = await ToolProcess.RunAsync("ab", [.. common, "-p", body, "-T", "application/json", url], Deadline);
                rows.Add(new AbRow(storage, read, write));
            }
            var title = $"ab -k -c {Text(settings.Concurrency)} -n {Text(settings.Requests)}, item {Text(settings.Item)}; " +
                $"{Environment.ProcessorCount} cores; {DateTime.UtcNow.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture)}";
            var (markdown, failed) = AbTable.Render(title, rows);
            await output.WriteAsync(markdown);
            return failed ? 1 : 0;
        }
        finally
        {
            File.Delete(body);
        }
    }

    private static string Text(long value) => value.ToString(CultureInfo.InvariantCulture);
}
