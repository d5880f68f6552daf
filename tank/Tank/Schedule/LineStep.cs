namespace Tank.Schedule;

/// <summary>
/// <c>line(a, b, d)</c>: request n leaves when the area under the rate line reaches n,
/// t = (−a + √(a² + 2·k·n)) / k with k = (b − a)/d, floored to ms (Tank's Line.ts).
/// </summary>
public sealed class LineStep(double from, double to, long durationMs) : ILoadStep
{
    private readonly double _seconds = durationMs / 1000.0;

    public double From { get; } = from;
    public double To { get; } = to;
    public long DurationMs { get; } = durationMs;

    public long Count => (long)((To + From) / 2.0 * _seconds);

    private double Slope => (To - From) / _seconds;

    public IEnumerable<long> Timestamps()
    {
        for (long n = 0; n < Count; n++) yield return TimestampOf(n);
    }

    private long TimestampOf(long n)
    {
        var a = Slope / 2.0;
        if (a == 0) return (long)(n / From * 1000);
        var root = (-From + Math.Sqrt(From * From - 4 * a * -n)) / (2 * a);
        return (long)(root * 1000);
    }

    public double RateAt(double seconds) =>
        seconds >= 0 && seconds <= _seconds ? From + (To - From) * seconds / _seconds : 0;

    public override string ToString() => $"line({From}, {To}, {DurationMs / 1000}s)";
}
