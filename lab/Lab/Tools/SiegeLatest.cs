namespace Lab.Tools;

/// <summary>
/// <c>reports/siege-latest</c>: a relative link to the newest siege run folder of the reports
/// folder (<c>reports/siege-&lt;UTC&gt;</c>, script/siege's default), as reports/latest is for the bench.
/// </summary>
public static class SiegeLatest
{
    public const string Name = "siege-latest";

    /// <summary>The run's folder when <c>--out</c> is not given: <c>REPORTS/siege-&lt;UTC stamp&gt;</c>.</summary>
    public static string RunDir(string reports, DateTime utc) => Path.Combine(reports, $"siege-{utc:yyyyMMdd'T'HHmmss'Z'}");

    /// <summary>Points the link at <paramref name="runDir"/> when that is a siege-* folder of <paramref name="reports"/>; false otherwise.</summary>
    public static bool Point(string reports, string runDir, TextWriter log)
    {
        var run = new DirectoryInfo(Path.GetFullPath(runDir));
        if (run.Parent?.FullName != Path.GetFullPath(reports).TrimEnd('/') || !run.Name.StartsWith("siege-", StringComparison.Ordinal) || run.Name == Name || !run.Exists)
            return false;
        var link = new FileInfo(Path.Combine(run.Parent.FullName, Name));
        if (link.Exists || link.LinkTarget is not null) link.Delete();
        File.CreateSymbolicLink(link.FullName, run.Name);
        log.WriteLine($"==> table: reports/{run.Name}/summary.md, raw siege outputs in raw/; reports/{Name} points at it");
        return true;
    }
}
