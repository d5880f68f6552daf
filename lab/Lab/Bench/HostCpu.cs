using System.Globalization;
using Harness.Processes;
using Tank.Cpu;

namespace Lab.Bench;

/// <summary>
/// The machine's busy CPU from /proc/stat (every state but idle and iowait, all cores), in clock
/// ticks, and the part of it no process of the run spent: <see cref="Window"/> reads both at its
/// start and end, the run's processes as whole trees (<see cref="CpuMeter"/>).
/// </summary>
public static class HostCpu
{
    /// <summary>Busy ticks of all cores since boot; null where /proc/stat cannot be read.</summary>
    public static long? BusyTicks(string procRoot = "/proc")
    {
        try
        {
            return HostStat.CpuLine(procRoot) is { } line ? Busy(line) : null;
        }
        catch (FormatException) { return null; }
    }

    /// <summary>
    /// The busy ticks of a /proc/stat "cpu" line: user, nice, system and steal (a neighbour's). Not
    /// idle or iowait, and not irq and softirq: the loopback traffic of the run itself is processed
    /// there (0.2 cores at 40 000 requests/s) and no process's own time holds it.
    /// </summary>
    public static long Busy(string cpuLine)
    {
        var fields = HostStat.Fields(cpuLine);
        return fields[0] + fields[1] + fields[2] + (fields.Length > 7 ? fields[7] : 0);
    }

    /// <summary>
    /// Waits until the machine's busy CPU over the last second is under <paramref name="idleCores"/>;
    /// false when <paramref name="deadline"/> (Environment.TickCount64) came first. <paramref name="waited"/>
    /// says what was waited for when it took more than a moment.
    /// </summary>
    public static bool WaitForIdle(double idleCores, long deadline, CancellationToken cancel, out string? waited)
    {
        var sample = TimeSpan.FromMilliseconds(250);
        var start = Environment.TickCount64;
        var samples = new Queue<(long At, long Busy)>();
        double? cores = null;
        while (BusyTicks() is { } busy)
        {
            var now = Environment.TickCount64;
            samples.Enqueue((now, busy));
            // The oldest sample goes only while the next one still spans 0.9 s: a window is never cut below it.
            while (samples.Count > 2 && now - samples.ElementAt(1).At >= 900) samples.Dequeue();
            var (firstAt, firstBusy) = samples.Peek();
            if (now - firstAt >= 900)
            {
                cores = (busy - firstBusy) / CpuMeter.TicksPerSecond / ((now - firstAt) / 1000.0);
                if (cores < idleCores)
                {
                    var seconds = (now - start) / 1000.0;
                    waited = seconds > 1.5 ? string.Create(CultureInfo.InvariantCulture, $"the machine to go idle ({seconds:0.#} s)") : null;
                    return true;
                }
            }
            if (now >= deadline && now - start >= 1000)
            {
                waited = cores is { } busyCores
                    ? string.Create(CultureInfo.InvariantCulture, $"the machine to go idle (still {busyCores:0.##} cores busy after {(now - start) / 1000.0:0.#} s)")
                    : string.Create(CultureInfo.InvariantCulture, $"the machine to go idle (not measured within {(now - start) / 1000.0:0.#} s)");
                return false;
            }
            cancel.WaitHandle.WaitOne(sample);
            cancel.ThrowIfCancellationRequested();
        }
        waited = null;
        return true;
    }

    /// <summary>Starts a window over which the CPU outside <paramref name="targets"/> is measured.</summary>
    public static Window Open(IReadOnlyList<CpuTarget> targets) => new(targets);

    public sealed class Window
    {
        private readonly CpuMeter _meter;
        private readonly long? _host;
        private readonly Dictionary<string, long?> _processes;
        private readonly long _start = Environment.TickCount64;

        internal Window(IReadOnlyList<CpuTarget> targets)
        {
            _meter = new CpuMeter(targets);
            _processes = _meter.Read();
            _host = BusyTicks();
        }

        /// <summary>Cores busy outside the run's processes over the window (never below 0); null when /proc/stat was not read.</summary>
        public double? ForeignCores()
        {
            var host = BusyTicks();
            var processes = _meter.Read();
            var seconds = (Environment.TickCount64 - _start) / 1000.0;
            if (_host is null || host is null || seconds <= 0) return null;
            var ours = processes.Sum(p => p.Value is { } after && _processes.GetValueOrDefault(p.Key) is { } before ? after - before : 0);
            return Math.Max(0, (host.Value - _host.Value - ours) / CpuMeter.TicksPerSecond / seconds);
        }
    }
}
