using Tank.Runner;

namespace Tank.Stats;

/// <summary>
/// What happened in one second, bucketed like Tank by the second in which a response completed:
/// response count, interval_real histogram, HTTP and net code counts; per tag when tags are used.
/// </summary>
public sealed class SecondStats
{
    public Histogram IntervalReal { get; } = new();
    public Dictionary<int, long> HttpCodes { get; } = [];
    public Dictionary<int, long> NetCodes { get; } = [];
    public Dictionary<string, SecondStats> Tagged { get; } = new(StringComparer.Ordinal);
    public long Count => IntervalReal.Count;

    /// <summary>Responses that failed: a network error, no HTTP answer, or a 4xx/5xx status.</summary>
    public long Errors { get; private set; }

    public void Add(long intervalRealUs, int netCode, int httpCode, string? tag)
    {
        AddOne(intervalRealUs, netCode, httpCode);
        if (!string.IsNullOrEmpty(tag))
        {
            if (!Tagged.TryGetValue(tag, out var tagged)) Tagged[tag] = tagged = new SecondStats();
            tagged.AddOne(intervalRealUs, netCode, httpCode);
        }
    }

    private void AddOne(long intervalRealUs, int netCode, int httpCode)
    {
        IntervalReal.Record(intervalRealUs);
        HttpCodes[httpCode] = HttpCodes.GetValueOrDefault(httpCode) + 1;
        NetCodes[netCode] = NetCodes.GetValueOrDefault(netCode) + 1;
        if (IsError(netCode, httpCode)) Errors++;
    }

    public static bool IsError(int netCode, int httpCode) => netCode != 0 || httpCode == 0 || httpCode >= 400;
}
