using System.Diagnostics;

namespace Crash;

/// <summary>Seconds since the run started; every time in the result is on this clock.</summary>
internal sealed class CrashClock
{
    private readonly Stopwatch _watch = Stopwatch.StartNew();

    public double Now => _watch.Elapsed.TotalSeconds;

    /// <summary>The <see cref="Stopwatch"/> timestamp of <paramref name="seconds"/> on this clock.</summary>
    public long TicksAt(double seconds) => Stopwatch.GetTimestamp() - _watch.ElapsedTicks + (long)(seconds * Stopwatch.Frequency);
}
