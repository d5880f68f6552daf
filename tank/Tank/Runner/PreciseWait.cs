using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Tank.Runner;

/// <summary>
/// Sleeps until a Stopwatch deadline with sub-millisecond precision: a kernel sleep (usleep, about
/// 50–100 µs of slack on Linux) while far away, then yielding spins for the last stretch.
/// Task.Delay and Thread.Sleep only resolve whole milliseconds, which would make every send late.
/// </summary>
public static class PreciseWait
{
    private const long SpinWindowUs = 120;

    [DllImport("libc", EntryPoint = "usleep")]
    private static extern int USleep(uint microseconds);

    private static readonly bool CanUSleep = OperatingSystem.IsLinux() || OperatingSystem.IsMacOS();

    public static void Until(long deadlineTicks, CancellationToken token)
    {
        while (!token.IsCancellationRequested)
        {
            var remainingUs = (deadlineTicks - Stopwatch.GetTimestamp()) * 1_000_000 / Stopwatch.Frequency;
            if (remainingUs <= 0) return;
            if (remainingUs > SpinWindowUs)
            {
                var sleepUs = Math.Min(remainingUs - SpinWindowUs / 2, 100_000);
                if (CanUSleep) USleep((uint)sleepUs);
                else Thread.Sleep((int)Math.Max(1, sleepUs / 1000));
            }
            else Thread.Yield();
        }
    }
}
