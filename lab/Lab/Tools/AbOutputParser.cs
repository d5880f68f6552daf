using System.Globalization;
using System.Text.RegularExpressions;

namespace Lab.Tools;

/// <summary>Reads ApacheBench 2.3's results from its output (stdout and stderr together).</summary>
public static partial class AbOutputParser
{
    [GeneratedRegex(@"^Requests per second:\s+(?<v>[0-9.]+)")]
    private static partial Regex Rate();

    [GeneratedRegex(@"^Time per request:\s+(?<v>[0-9.]+) \[ms\] \(mean\)$")]
    private static partial Regex Mean();

    [GeneratedRegex(@"^Failed requests:\s+(?<v>[0-9]+)")]
    private static partial Regex Failed();

    [GeneratedRegex(@"^Non-2xx responses:\s+(?<v>[0-9]+)")]
    private static partial Regex Non2xx();

    [GeneratedRegex(@"^\s*100%\s+(?<v>[0-9]+)")]
    private static partial Regex Longest();

    public static AbStatistics Parse(string output)
    {
        var lines = output.Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
        string? Find(Regex regex) => lines.Select(l => regex.Match(l)).LastOrDefault(m => m.Success)?.Groups["v"].Value;
        decimal? Number(Regex regex) => Find(regex) is { } v ? decimal.Parse(v, CultureInfo.InvariantCulture) : null;
        long? Whole(Regex regex) => Find(regex) is { } v ? long.Parse(v, CultureInfo.InvariantCulture) : null;
        return new AbStatistics(Number(Rate()), Number(Mean()), Whole(Longest()), Whole(Failed()), Whole(Non2xx()));
    }

    /// <summary>The last non-empty line, which says why ab gave up (<c>apr_socket_recv: Connection refused (111)</c>).</summary>
    public static string LastLine(string output) =>
        output.Split('\n').Select(l => l.Trim()).LastOrDefault(l => l.Length > 0) ?? "";
}
