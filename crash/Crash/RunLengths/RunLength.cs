using Crash.Timeline;

namespace Crash.RunLengths;

/// <summary>
/// How long a fault run writes: --seconds, extended where that ends before the fault could be over
/// and p99 back under the SLO for the seconds it must hold — the fault's start, its budget (the
/// slowest restart of its targets, or its stop time), <see cref="RunTimeline.HeldSeconds"/> and
/// <see cref="MarginSeconds"/>. The fault stays where --seconds puts it (only the end moves), but for a
/// row whose promise is a window (<see cref="AfterWindow"/>).
/// </summary>
public sealed record RunLength(double Seconds, double RequestedSeconds, double FaultAt, FaultBudget Fault)
{
    /// <summary>
    /// Seconds of writes, beyond a window, before a window row's fault: what is acknowledged in them is
    /// older than the window when the fault strikes, which is what the row's check tests.
    /// </summary>
    public const double WindowMarginSeconds = 5;

    /// <summary>Why the fault is where it is, when not a third of the way into --seconds (null: it is).</summary>
    public string? FaultAtSource { get; init; }

    /// <summary>
    /// Seconds after the fault beyond its budget and the held window: for the service to reconnect
    /// and work off its backlog before p99 can hold (up to 5.6 s after a restart under load), and
    /// for the fault's end falling inside a second, which then does not count whole.
    /// </summary>
    public const double MarginSeconds = 5;

    /// <summary>The shortest run that sees the fault over and p99 held back under the SLO, were the restart as slow as its budget.</summary>
    public double MinimumSeconds => FaultAt + Fault.Seconds + RunTimeline.HeldSeconds + MarginSeconds;

    public bool Extended => Seconds > RequestedSeconds;

    /// <summary>What the run's length is made of (a result's <c>seconds_source</c>), e.g. "extended from --seconds 20 s: fault at 6 s + tarantool's restart budget 16 s + …".</summary>
    public string Source => Extended
        ? FaultBudget.Text($"extended from --seconds {RequestedSeconds} s: {Needs}")
        : FaultBudget.Text($"--seconds {RequestedSeconds} s; it needs {Needs}");

    private string Needs => FaultBudget.Text($"fault at {FaultAt} s{(FaultAtSource is { } why ? $" ({why})" : "")} + {Fault.Why} + {RunTimeline.HeldSeconds} s back under the SLO + {MarginSeconds} s margin = {MinimumSeconds} s");

    /// <summary>The requested length, or the minimum in whole seconds where that is longer.</summary>
    public static RunLength For(double requestedSeconds, double faultAt, FaultBudget fault)
    {
        var length = new RunLength(requestedSeconds, requestedSeconds, faultAt, fault);
        return length.MinimumSeconds > requestedSeconds ? length with { Seconds = Math.Ceiling(length.MinimumSeconds) } : length;
    }

    /// <summary>
    /// This length for a row whose promise is a window of <paramref name="windowMs"/>: its fault no earlier
    /// than the window + <see cref="WindowMarginSeconds"/>, and the run extended past it as ever. A queue whose
    /// consumers read <paramref name="readShare"/> of the write rate has read the oldest messages by then (at t
    /// its oldest unread message is (1 − share) × t old), so its fault waits for that share too.
    /// </summary>
    public RunLength AfterWindow(long windowMs, double readShare)
    {
        var window = windowMs / 1000.0;
        var faultAt = Math.Ceiling((window + WindowMarginSeconds) / (1 - readShare));
        if (faultAt <= FaultAt) return this;
        var why = FaultBudget.Text($"the {window} s window + {WindowMarginSeconds} s of writes older than it");
        if (readShare > 0) why = FaultBudget.Text($"{why}, ÷ {1 - readShare} for a queue read at {readShare} of the write rate");
        return For(RequestedSeconds, faultAt, Fault) with { FaultAtSource = why };
    }
}
