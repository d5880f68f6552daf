using System.Diagnostics;

namespace Crash;

/// <summary>Seconds since the run started; every time in the result is on this clock.</summary>
internal sealed class CrashClock
{
    private readonly long _start = Stopwatch.GetTimestamp();

    public double Now => Stopwatch.GetElapsedTime(_start).TotalSeconds;

    /// <summary>The <see cref="Stopwatch"/> timestamp of <paramref name="seconds"/> on this clock.</summary>
    public long TicksAt(double seconds) => _start + (long)(seconds * Stopwatch.Frequency);
}
