using HdrHistogram;

namespace Tank.Stats;

/// <summary>
/// A run's whole latency spectrum in an HdrHistogram (3 significant digits, 1 µs to ~19 h), written
/// as HdrHistogram's percentile distribution (<c>latency.hgrm</c>, values in ms) for plotters
/// such as HdrHistogram's plotFiles.html. It sits beside <see cref="Histogram"/>, which stays the
/// runner's and the report's own: that one is per second on the runner's hot path (a 32 KB array
/// against HdrHistogram's ~230 KB, 28 672 counts, at this range and precision) and its figures are what the
/// report's tables have always shown.
/// </summary>
public sealed class LatencySpectrum
{
    private const double MicrosecondsPerMillisecond = 1000;

    private readonly LongHistogram _histogram = new(Histogram.MaxTrackable, 3);

    public long Count => _histogram.TotalCount;

    public void Record(long microseconds) => _histogram.RecordValue(Math.Clamp(microseconds, 0, Histogram.MaxTrackable));

    /// <summary>The value at a percentile, in µs (HdrHistogram's: the highest value equivalent to the rank's bucket).</summary>
    public long Percentile(double percentile) => _histogram.GetValueAtPercentile(percentile);

    /// <summary>HdrHistogram's percentile distribution text, in milliseconds.</summary>
    public string Hgrm()
    {
        using var text = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
        _histogram.OutputPercentileDistribution(text, 5, MicrosecondsPerMillisecond);
        return text.ToString();
    }
}
