using HdrHistogram;

namespace Tank.Stats;

/// <summary>
/// The one histogram of every latency the runner and the report record, in µs: HdrHistogram's
/// <see cref="LongHistogram"/> (3 significant digits, 0 µs to 2^36 − 1 µs ≈ 19 h; values outside
/// are clamped) plus exact count, sum, min and max. Every percentile anywhere — the runner's
/// progress line and autostop, meta.json, the report's tables, latency.hgrm — is HdrHistogram's
/// <see cref="HistogramBase.GetValueAtPercentile"/>: rank = max(1, round(p/100 × count)), and the value
/// is the highest one equivalent to the bucket holding that rank (at most 0.1 % above the recorded
/// values in it), so the table and the run's latency.hgrm agree.
/// <para>
/// Sum and mean are kept exactly beside HdrHistogram's counts because its GetMean is approximate
/// (each bucket counted at its median equivalent value), and min and max likewise because its
/// max is the top of the max's bucket: the report prints mean and max as measured.
/// </para>
/// <para>
/// One costs ~221 KB (27 648 long counts); recording is a few shifts and an increment, no
/// allocation. The runner reuses its per-second ones (see <see cref="SecondStats"/>).
/// </para>
/// </summary>
public sealed class LatencyHistogram
{
    /// <summary>The highest value tracked, in µs (~19 h); larger values are recorded as this.</summary>
    public const long MaxTrackable = (1L << 36) - 1;

    /// <summary>HdrHistogram's precision: values are told apart to 1 part in 1 000 (unit resolution below 2 048 µs).</summary>
    public const int SignificantDigits = 3;

    private const double MicrosecondsPerMillisecond = 1000;

    private readonly LongHistogram _histogram = new(MaxTrackable, SignificantDigits);
    private long _min = long.MaxValue;

    public long Count { get; private set; }

    /// <summary>The exact sum of the recorded values (negative ones as 0), in µs.</summary>
    public long Sum { get; private set; }

    /// <summary>The exact smallest recorded value (0 when empty).</summary>
    public long Min => Count == 0 ? 0 : _min;

    /// <summary>The exact largest recorded value (0 when empty).</summary>
    public long Max { get; private set; }

    /// <summary>The exact mean, in µs (0 when empty).</summary>
    public double Mean => Count == 0 ? 0 : (double)Sum / Count;

    /// <summary>Records one value in µs; negative values count as 0. Allocation-free.</summary>
    public void Record(long microseconds)
    {
        if (microseconds < 0) microseconds = 0;
        _histogram.RecordValue(Math.Min(microseconds, MaxTrackable));
        Count++;
        Sum += microseconds;
        if (microseconds < _min) _min = microseconds;
        if (microseconds > Max) Max = microseconds;
    }

    /// <summary>Adds every value of <paramref name="other"/> to this one.</summary>
    public void Add(LatencyHistogram other)
    {
        if (other.Count == 0) return;
        _histogram.Add(other._histogram);
        Count += other.Count;
        Sum += other.Sum;
        _min = Math.Min(_min, other._min);
        Max = Math.Max(Max, other.Max);
    }

    /// <summary>Empties it, keeping its counts array.</summary>
    public void Reset()
    {
        _histogram.Reset();
        Count = Sum = Max = 0;
        _min = long.MaxValue;
    }

    /// <summary>
    /// The value at <paramref name="percentile"/> (0..100) in µs, by HdrHistogram's rule (see the
    /// class summary); 0 when empty. Not clamped to <see cref="Max"/>: it is what latency.hgrm says.
    /// </summary>
    public long Percentile(double percentile) => Count == 0 ? 0 : _histogram.GetValueAtPercentile(percentile);

    /// <summary>
    /// How many values lie above <paramref name="microseconds"/>, to HdrHistogram's resolution:
    /// values in the same bucket (within 0.1 %) count as not above; none when it is at least the exact max.
    /// </summary>
    public long CountAbove(long microseconds)
    {
        if (Count == 0 || microseconds >= Max) return 0;
        if (microseconds < 0) return Count;
        var top = _histogram.HighestEquivalentValue(microseconds);
        long above = 0;
        foreach (var bucket in _histogram.RecordedValues())
            if (bucket.ValueIteratedTo > top) above += bucket.CountAtValueIteratedTo;
        return above;
    }

    /// <summary>HdrHistogram's percentile distribution text (latency.hgrm), values in milliseconds.</summary>
    public string Hgrm()
    {
        using var text = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
        _histogram.OutputPercentileDistribution(text, 5, MicrosecondsPerMillisecond);
        return text.ToString();
    }
}
