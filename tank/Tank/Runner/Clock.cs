using System.Diagnostics;

namespace Tank.Runner;

/// <summary>
/// Monotonic time for measuring (Stopwatch ticks) anchored once to the wall clock, so phout's
/// unix timestamps and the µs intervals come from the same source and never jump.
/// </summary>
public sealed class Clock
{
    private long _startTicks = Stopwatch.GetTimestamp();
    private long _startUnixUs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() * 1000;

    /// <summary>Re-anchors the start to now: the test's time 0 comes after its preparation.</summary>
    public void Restart()
    {
        _startTicks = Stopwatch.GetTimestamp();
        _startUnixUs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() * 1000;
    }

    public long StartTicks => _startTicks;

    public static long Now => Stopwatch.GetTimestamp();

    public static long TicksFromMs(long ms) => ms * Stopwatch.Frequency / 1000;

    /// <summary>Microseconds since the clock's start; differences of these are exact sums.</summary>
    public long ElapsedUs(long ticks) => (long)((ticks - _startTicks) * (1_000_000.0 / Stopwatch.Frequency));

    public long UnixUs(long ticks) => _startUnixUs + ElapsedUs(ticks);

    public double ElapsedSeconds => ElapsedUs(Now) / 1e6;
}
