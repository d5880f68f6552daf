using System.Globalization;
using System.Text.RegularExpressions;

namespace Tank.Bench;

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

    /// <summary>(rps, requests), or null when wrk printed no rate (it failed).</summary>
    public static (double Rps, long Requests)? Parse(string output)
    {
        var rate = Rate().Match(output);
        var requests = Requests().Match(output);
        if (!rate.Success || !requests.Success) return null;
        return (double.Parse(rate.Groups["rps"].Value, CultureInfo.InvariantCulture), long.Parse(requests.Groups["requests"].Value, CultureInfo.InvariantCulture));
    }
}
