using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Harness.Timing;

/// <summary>
/// Sleeps until a Stopwatch deadline with sub-millisecond precision: a kernel sleep (usleep) while
/// far away, then a pure user-space spin for the last stretch. Task.Delay and Thread.Sleep only
/// resolve whole milliseconds, which would make every send late. The spin used to call
/// sched_yield in a loop: on this VM every syscall is expensive, and it cost more than the sends.
/// </summary>
public static class PreciseWait
{
    // With the timer slack at 1 µs (see TuneCurrentThread) usleep overshoots by the wake-up latency
    // only (tens of µs here), so a short spin suffices; it burns < 10 % of a core at 1 send/ms.
    private const long SpinWindowUs = 60;

    [DllImport("libc", EntryPoint = "usleep")]
    private static extern int USleep(uint microseconds);

    [DllImport("libc", EntryPoint = "prctl")]
    private static extern int Prctl(int option, ulong arg2, ulong arg3, ulong arg4, ulong arg5);

    [DllImport("libc", EntryPoint = "getpriority")]
    private static extern int GetPriority(int which, int who);

    [DllImport("libc", EntryPoint = "syscall")]
    private static extern long SchedSetAttr(long number, int pid, ref byte attr, uint flags);

    private static readonly bool CanUSleep = OperatingSystem.IsLinux() || OperatingSystem.IsMacOS();

    /// <summary>
    /// Linux, unprivileged, this thread only: timer slack 1 µs instead of 50 µs, so usleep wakes on
    /// time; and a 100 µs EEVDF time slice (kernel 6.12+; sched_setattr with the same policy and
    /// nice needs no privilege), so when its sleep ends the thread preempts whatever runs on the
    /// CPU at once instead of waiting up to the default 3 ms slice of, say, the target server.
    /// Failures are ignored: older kernels just keep the defaults.
    /// </summary>
    public static void TuneCurrentThread()
    {
        if (!OperatingSystem.IsLinux()) return;
        try
        {
            Prctl(29 /* PR_SET_TIMERSLACK */, 1, 0, 0, 0);
            var number = RuntimeInformation.ProcessArchitecture switch { Architecture.X64 => 314L, Architecture.Arm64 => 274L, _ => -1L };
            if (number < 0) return;
            // struct sched_attr (VER0, 48 bytes): size, policy, flags, nice, priority, runtime, deadline, period
            Span<byte> attr = stackalloc byte[48];
            attr.Clear();
            BitConverter.TryWriteBytes(attr, 48u);
            BitConverter.TryWriteBytes(attr[16..], GetPriority(0 /* PRIO_PROCESS: with 0, this thread */, 0));
            BitConverter.TryWriteBytes(attr[24..], 100_000UL); // sched_runtime = the slice, ns // sched_runtime = the slice, ns
            SchedSetAttr(number, 0, ref attr[0], 0);
        }
        catch (EntryPointNotFoundException) { }
        catch (DllNotFoundException) { }
    }

    /// <summary>
    /// Sleeps until the deadline in the kernel only, never spinning: for a sender that may be late by
    /// the wake-up latency (tens of µs here) but must leave the CPU to the server it loads.
    /// </summary>
    public static void SleepUntil(long deadlineTicks)
    {
        var remainingUs = (deadlineTicks - Stopwatch.GetTimestamp()) * 1_000_000 / Stopwatch.Frequency;
        if (remainingUs <= 0) return;
        if (CanUSleep) USleep((uint)Math.Min(remainingUs, 1_000_000));
        else Thread.Sleep((int)Math.Max(1, remainingUs / 1000));
    }

    public static void Until(long deadlineTicks, CancellationToken token)
    {
        while (!token.IsCancellationRequested)
        {
            var remainingUs = (deadlineTicks - Stopwatch.GetTimestamp()) * 1_000_000 / Stopwatch.Frequency;
            if (remainingUs <= 0) return;
            if (remainingUs > SpinWindowUs)
            {
                var sleepUs = Math.Min(remainingUs - SpinWindowUs, 100_000);
                if (CanUSleep) USleep((uint)sleepUs);
                else Thread.Sleep((int)Math.Max(1, sleepUs / 1000));
            }
            else Thread.SpinWait(20);
        }
    }
}
