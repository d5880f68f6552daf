using System.Globalization;
using Tank.Stats;

namespace Lab.Metrics;

/// <summary>
/// What the service itself measured during one run: the difference of two scrapes of its
/// <c>/metrics</c> (metrics-before.txt and metrics-after.txt beside the run's meta.json, written by
/// script/bench), over every route of the run's storage architecture. <see cref="Missing"/> says why
/// there is no view (an older run, or /metrics unreachable).
/// </summary>
public sealed record ServerView
{
    public const string BeforeFile = "metrics-before.txt";
    public const string AfterFile = "metrics-after.txt";
    public const string Histogram = "integration_http_request_duration_seconds";
    public const string Timeouts = "integration_backend_timeouts_total";
    public const string Proxied = "integration_kv_proxied_requests_total";

    public string? Missing { get; init; }
    public IReadOnlyList<string> Routes { get; init; } = [];
    public long Requests { get; init; }
    public double MeanMs { get; init; }
    /// <summary>Estimated from the histogram's buckets (linear inside a bucket), so only as fine as the buckets.</summary>
    public double? P50Ms { get; init; }
    public double? P99Ms { get; init; }
    public long Non2xx { get; init; }
    /// <summary>Backend calls that timed out during the run, per backend (only those with any).</summary>
    public IReadOnlyDictionary<string, long> BackendTimeouts { get; init; } = new Dictionary<string, long>();
    /// <summary>Key-value requests this node forwarded to the key's owner in a sharded cluster (relayed or answered 503).</summary>
    public long ProxiedRequests { get; init; }

    /// <summary>The share of the run's requests that this node forwarded to another node; null when it forwarded none.</summary>
    public double? ProxiedShare => ProxiedRequests == 0 || Requests == 0 ? null : (double)ProxiedRequests / Requests;

    public static ServerView Read(string runDir, string storage)
    {
        var before = Path.Combine(runDir, BeforeFile);
        var after = Path.Combine(runDir, AfterFile);
        if (!File.Exists(before) || !File.Exists(after)) return new() { Missing = $"no {BeforeFile} and {AfterFile} (an older run, or /metrics unreachable)" };
        try
        {
            return FromScrapes(File.ReadAllText(before), File.ReadAllText(after), storage);
        }
        catch (FormatException e)
        {
            return new() { Missing = $"the scrapes could not be read: {e.Message}" };
        }
    }

    public static ServerView FromScrapes(string before, string after, string storage)
    {
        var start = Series(before);
        var end = Series(after);
        if (!end.Values.Any(s => s.Name.StartsWith(Histogram, StringComparison.Ordinal))) return new() { Missing = "the scrape after the run holds no request histogram (/metrics unreachable?)" };
        var delta = new List<(Dictionary<string, string> Labels, string Name, double Value)>();
        foreach (var (key, sample) in end)
        {
            var value = sample.Value - (start.TryGetValue(key, out var earlier) ? earlier.Value : 0);
            if (value < 0) return new() { Missing = "the counters went back between the scrapes (the service restarted)" };
            delta.Add((new Dictionary<string, string>(sample.Labels), sample.Name, value));
        }

        var mine = delta.Where(d => d.Name.StartsWith(Histogram, StringComparison.Ordinal) && d.Labels.GetValueOrDefault("storage") == storage).ToList();
        var counts = mine.Where(d => d.Name == Histogram + "_count").ToList();
        var requests = (long)Math.Round(counts.Sum(d => d.Value));
        var sum = mine.Where(d => d.Name == Histogram + "_sum").Sum(d => d.Value);
        var buckets = mine.Where(d => d.Name == Histogram + "_bucket")
            .GroupBy(d => ParseBound(d.Labels.GetValueOrDefault("le")))
            .Select(g => (g.Key, g.Sum(d => d.Value)))
            .ToList();
        return new ServerView
        {
            Routes = counts.Where(d => d.Value > 0).Select(d => d.Labels.GetValueOrDefault("route") ?? "").Distinct().Order(StringComparer.Ordinal).ToList(),
            Requests = requests,
            MeanMs = requests == 0 ? 0 : sum / requests * 1000,
            P50Ms = HistogramQuantile.Estimate(0.50, buckets) * 1000,
            P99Ms = HistogramQuantile.Estimate(0.99, buckets) * 1000,
            Non2xx = (long)Math.Round(counts.Where(d => !(d.Labels.GetValueOrDefault("status") ?? "").StartsWith('2')).Sum(d => d.Value)),
            BackendTimeouts = delta.Where(d => d.Name == Timeouts && d.Value > 0)
                .ToDictionary(d => d.Labels.GetValueOrDefault("backend") ?? "", d => (long)Math.Round(d.Value)),
            ProxiedRequests = (long)Math.Round(delta.Where(d => d.Name == Proxied).Sum(d => d.Value)),
        };
    }

    /// <summary>The wanted series of one scrape, keyed by name and labels.</summary>
    private static Dictionary<string, PrometheusSample> Series(string text) =>
        PrometheusText.Parse(text, name => name.StartsWith(Histogram, StringComparison.Ordinal) || name is Timeouts or Proxied)
            .GroupBy(s => s.Name + "{" + string.Join(",", s.Labels.OrderBy(l => l.Key, StringComparer.Ordinal).Select(l => l.Key + "=" + l.Value)) + "}")
            .ToDictionary(g => g.Key, g => g.Last());

    private static double ParseBound(string? le) =>
        le == "+Inf" ? double.PositiveInfinity
        : double.TryParse(le, NumberStyles.Float, CultureInfo.InvariantCulture, out var bound) ? bound
        : throw new FormatException($"a bucket with le=\"{le}\"");
}
