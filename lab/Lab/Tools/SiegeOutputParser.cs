using System.Globalization;
using System.Text.RegularExpressions;

namespace Lab.Tools;

/// <summary>
/// Reads siege 4.0.7's closing statistics from what it printed (stdout and stderr together, its
/// error lines coloured or not, CRLF or LF). Lines it did not print stay null: a run killed
/// before its end has none.
/// </summary>
public static partial class SiegeOutputParser
{
    [GeneratedRegex(@"\x1b\[[0-9;]*m")]
    private static partial Regex Colour();

    [GeneratedRegex(@"^(?<key>Transactions|Availability|Elapsed time|Transaction rate|Successful transactions|Failed transactions|Longest transaction):\s+(?<value>[0-9]+(\.[0-9]+)?)")]
    private static partial Regex Statistic();

    public static SiegeStatistics Parse(string output)
    {
        var values = new Dictionary<string, string>();
        var aborted = false;
        foreach (var raw in output.Split('\n'))
        {
            var line = Colour().Replace(raw.TrimEnd('\r'), "");
            // "siege aborted due to excessive socket failure": more than its limit (1024) of socket errors.
            if (line.Contains("siege aborted due to", StringComparison.Ordinal)) aborted = true;
            if (Statistic().Match(line) is { Success: true } match) values[match.Groups["key"].Value] = match.Groups["value"].Value;
        }
        long? Whole(string key) => values.TryGetValue(key, out var v) ? long.Parse(v, CultureInfo.InvariantCulture) : null;
        decimal? Number(string key) => values.TryGetValue(key, out var v) ? decimal.Parse(v, CultureInfo.InvariantCulture) : null;
        return new SiegeStatistics(Whole("Transactions"), Number("Availability"), Number("Elapsed time"), Number("Transaction rate"),
            Whole("Successful transactions"), Whole("Failed transactions"), Number("Longest transaction"), aborted);
    }
}
