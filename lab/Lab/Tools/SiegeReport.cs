using Harness.CommandLine;

namespace Lab.Tools;

/// <summary>
/// Builds a siege matrix's <c>summary.md</c> from its directory alone (<c>about.md</c> and
/// <c>raw/*.txt</c>), prints it, and gives the exit code: 1 when any run failed.
/// </summary>
public static class SiegeReport
{
    public static async Task<int> WriteAsync(string dir, TextWriter output, TextWriter log)
    {
        var rawDir = Path.Combine(dir, "raw");
        var files = Directory.Exists(rawDir) ? Directory.GetFiles(rawDir, "*.txt").Order(StringComparer.Ordinal).ToArray() : [];
        if (files.Length == 0) throw new InputException($"no raw siege outputs under {rawDir}");
        var runs = new List<SiegeRun>();
        foreach (var file in files) runs.Add(SiegeRawFile.Parse(Path.GetFileName(file), await File.ReadAllTextAsync(file)));
        var aboutPath = Path.Combine(dir, "about.md");
        var about = File.Exists(aboutPath) ? await File.ReadAllTextAsync(aboutPath) : $"# siege matrix ({dir})\n\n";
        var (markdown, failed) = SiegeTable.Render(about, runs);
        var summary = Path.Combine(dir, "summary.md");
        await File.WriteAllTextAsync(summary, markdown);
        await output.WriteAsync(markdown);
        if (failed) await log.WriteLineAsync($"tank: siege: some runs failed (failed transactions or no statistics): see {summary}");
        return failed ? 1 : 0;
    }
}
