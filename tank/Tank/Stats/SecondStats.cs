using Tank.Runner;

namespace Tank.Stats;

/// <summary>
/// What happened in one second, bucketed like Tank by the second in which a response completed:
/// response count, interval_real histogram, HTTP and net code counts; per tag when tags are used.
/// A histogram is ~221 KB, so the runner does not drop a closed second: <see cref="Recycle"/>
/// empties it (and its tags) into the spares it was taken from, and <see cref="Take"/> reuses them.
/// </summary>
public sealed class SecondStats
{
    private readonly Stack<SecondStats>? _spares;

    public SecondStats() : this(null) { }

    private SecondStats(Stack<SecondStats>? spares) => _spares = spares;

    /// <summary>An empty second from <paramref name="spares"/>, or a new one that will recycle into them.</summary>
    public static SecondStats Take(Stack<SecondStats> spares) => spares.TryPop(out var stats) ? stats : new SecondStats(spares);

    public LatencyHistogram IntervalReal { get; } = new();
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
            if (!Tagged.TryGetValue(tag, out var tagged))
                Tagged[tag] = tagged = _spares is null ? new SecondStats() : Take(_spares);
            tagged.AddOne(intervalRealUs, netCode, httpCode);
        }
    }

    /// <summary>
    /// Empties this second and its tags and, when it came from <see cref="Take"/>, returns them to
    /// the spares; it must not be used after that except through <see cref="Take"/>.
    /// </summary>
    public void Recycle()
    {
        foreach (var tagged in Tagged.Values) tagged.Recycle();
        Tagged.Clear();
        IntervalReal.Reset();
        HttpCodes.Clear();
        NetCodes.Clear();
        Errors = 0;
        _spares?.Push(this);
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
