using System.Numerics;

namespace Tank.Stats;

/// <summary>
/// A log-linear histogram of microsecond values in the spirit of HdrHistogram: exact below 256 µs,
/// then 128 linear sub-buckets per power of two, so any reported value is within 0.4 % of the
/// truth (bucket midpoint, half of 1/128). Covers 0 µs to 2^36 µs (~19 h); min, max and sum are exact.
/// </summary>
public sealed class Histogram
{
    private const int SubBits = 7;                       // 128 sub-buckets per octave
    private const int Linear = 2 << SubBits;             // values below 256 get their own bucket
    private const int Octaves = 36 - SubBits;            // enough for 2^36 µs
    public const long MaxTrackable = (1L << 36) - 1;

    private readonly long[] _counts = new long[Linear + Octaves * (1 << SubBits)];

    public long Count { get; private set; }
    public long Sum { get; private set; }
    public long Min { get; private set; } = long.MaxValue;
    public long Max { get; private set; }
    public double Mean => Count == 0 ? 0 : (double)Sum / Count;

    public void Record(long value)
    {
        if (value < 0) value = 0;
        _counts[IndexOf(Math.Min(value, MaxTrackable))]++;
        Count++;
        Sum += value;
        if (value < Min) Min = value;
        if (value > Max) Max = value;
    }

    public void Add(Histogram other)
    {
        for (var i = 0; i < _counts.Length; i++) _counts[i] += other._counts[i];
        Count += other.Count;
        Sum += other.Sum;
        Min = Math.Min(Min, other.Min);
        Max = Math.Max(Max, other.Max);
    }

    public void Reset()
    {
        Array.Clear(_counts);
        Count = Sum = Max = 0;
        Min = long.MaxValue;
    }

    /// <summary>
    /// The value at percentile <paramref name="percentile"/> (0..100) by nearest rank; 100 gives the exact max.
    /// </summary>
    public long Percentile(double percentile)
    {
        if (Count == 0) return 0;
        if (percentile >= 100) return Max;
        var rank = Math.Max(1, (long)Math.Ceiling(percentile / 100.0 * Count));
        long seen = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            seen += _counts[i];
            if (seen >= rank) return Math.Clamp(Midpoint(i), Min, Max);
        }
        return Max;
    }

    /// <summary>How many values lie above <paramref name="value"/> (to the bucket: values sharing its bucket count as not above).</summary>
    public long CountAbove(long value)
    {
        if (Count == 0 || value >= Max) return 0;
        long above = 0;
        for (var i = IndexOf(Math.Clamp(value, 0, MaxTrackable)) + 1; i < _counts.Length; i++) above += _counts[i];
        return above;
    }

    private static int IndexOf(long value)
    {
        if (value < Linear) return (int)value;
        var shift = BitOperations.Log2((ulong)value) - SubBits;   // value >> shift is in [128, 256)
        return Linear + (shift - 1) * (1 << SubBits) + (int)((value >> shift) - (1 << SubBits));
    }

    private static long Midpoint(int index)
    {
        if (index < Linear) return index;
        var octave = (index - Linear) >> SubBits;
        var shift = octave + 1;
        var sub = (index - Linear) & ((1 << SubBits) - 1);
        var low = (long)((1 << SubBits) + sub) << shift;
        return low + (1L << shift) / 2;
    }
}
