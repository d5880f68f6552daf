using System.Globalization;
using System.Text.RegularExpressions;

namespace Lab.Bench;

/// <summary>
/// The two numbers the cross-check takes from wrk's report: the rate (<c>Requests/sec: 12345.67</c>)
/// and the request count (<c>123456 requests in 10.00s, …</c>).
/// </summary>
public static partial class WrkOutput
{
    [GeneratedRegex(@"^Requests/sec:\s+(?<rps>[0-9.]+)\s*$", RegexOptions.Multiline)]
    private static partial Regex Rate();

    [GeneratedRegex(@"^\s*(?<requests>[0-9]+) requests in ", RegexOptions.Multiline)]
    private static partial Regex Requests();

    [GeneratedRegex(@"^\s*99%\s+(?<value>[0-9.]+)(?<unit>us|ms|s|m)\s*$", RegexOptions.Multiline)]
    private static partial Regex P99();

    /// <summary>The 99th percentile of <c>wrk --latency</c>'s distribution in ms, or null without one.</summary>
    public static double? P99Ms(string output)
    {
        var match = P99().Match(output);
        if (!match.Success) return null;
        var value = double.Parse(match.Groups["value"].Value, CultureInfo.InvariantCulture);
        return match.Groups["unit"].Value switch { "us" => value / 1000, "ms" => value, "s" => value * 1000, _ => value * 60_000 };
    }

    /// <summary>(rps, requests), or null when wrk printed no rate (it failed).</summary>
    public static (double Rps, long Requests)? Parse(string output)
    {
        var rate = Rate().Match(output);
        var requests = Requests().Match(output);
        if (!rate.Success || !requests.Success) return null;
        return (double.Parse(rate.Groups["rps"].Value, CultureInfo.InvariantCulture), long.Parse(requests.Groups["requests"].Value, CultureInfo.InvariantCulture));
    }
}
