using System.Globalization;

using Tank.Commands;
using Harness.CommandLine;

namespace Crash;

/// <summary>
/// The options of <c>crash run</c>. The command line checks each value and <see cref="Validated"/>
/// how they fit together, all before the first request, so bad input fails with a message naming
/// the option (exit code 2).
/// </summary>
public sealed record CrashOptions
{
    /// <summary>The base URL without a trailing slash.</summary>
    public required string Url { get; init; }
    public required string Storage { get; init; }
    public required CrashKind Kind { get; init; }
    /// <summary>Writes per second, evenly spaced.</summary>
    public required double Rate { get; init; }
    /// <summary>Where <see cref="Rate"/> came from (a result's <c>rate_source</c>): --rate, or a bench report's confirmed capacity.</summary>
    public string RateSource { get; init; } = "--rate";
    /// <summary>The rate is a share of a bench report's confirmed capacity (--rate-from): a run under load, warmed up first.</summary>
    public bool RateFromReport { get; init; }
    /// <summary>The bench report the rate rule read (a result's <c>rate_report</c>); null without one.</summary>
    public string? RateReport { get; init; }
    public required double Seconds { get; init; }
    /// <summary>What <see cref="Seconds"/> is made of (a result's <c>seconds_source</c>): --seconds, or in a matrix or cluster the length the fault needs where that is longer.</summary>
    public string SecondsSource { get; init; } = "--seconds";
    /// <summary>--seconds as asked, before a matrix or cluster extended it to outlast the fault (a result's <c>requested_seconds</c>); null: <see cref="Seconds"/>.</summary>
    public double? RequestedSeconds { get; init; }
    /// <summary>
    /// The writes may stop before <see cref="Seconds"/>, at --seconds as asked at the earliest, once p99 held back
    /// under the SLO after the fault (<see cref="Timeline.EarlyEnd"/>): a matrix sets it on a run it extended for
    /// the fault's restart budget, unless asked for full lengths.
    /// </summary>
    public bool EndEarly { get; init; }

    /// <summary>
    /// These options as a run that ended early ran: <see cref="Seconds"/> is where its writes stopped, and
    /// <see cref="SecondsSource"/> says why.
    /// </summary>
    public CrashOptions EndedAt(int seconds, int heldFromSecond) => this with
    {
        Seconds = seconds,
        SecondsSource = string.Create(CultureInfo.InvariantCulture,
            $"{SecondsSource}; ended early at {seconds} s: p99 held under the SLO from {heldFromSecond} s for {Timeline.RunTimeline.HeldSeconds} s, + {Timeline.EarlyEnd.MarginSeconds} s"),
    };

    /// <summary>The early end of a run with these options, or null when it has none.</summary>
    internal Timeline.EarlyEnd? EarlyEnd(Func<double?> faultEndedS) =>
        EndEarly ? new Timeline.EarlyEnd(RequestedSeconds ?? Seconds, SloMs, faultEndedS) : null;

    /// <summary>How long the fault may keep its targets from answering, by the restart budgets (a result's <c>fault_budget_s</c>); null for a <c>crash run</c> command, whose fault crash does not know.</summary>
    public double? FaultBudgetS { get; init; }
    /// <summary>
    /// Seconds of writes at <see cref="Rate"/> before the run, with keys of their own that are not
    /// judged, so a freshly started service has compiled its paths and opened its pools before the
    /// clock starts (0: none). Loaded runs (a rate from a bench report) get
    /// <see cref="LoadedWarmupSeconds"/>: without it the timeline's first second measured the
    /// service's start (p99 48–145 ms), not the architecture.
    /// </summary>
    public double WarmupSeconds => RateFromReport ? LoadedWarmupSeconds : 0;

    public const double LoadedWarmupSeconds = 3;
    /// <summary>
    /// Seconds over which a warm-up's rate rises from 0 before its <see cref="WarmupSeconds"/> at the
    /// full rate: a fresh service at the full rate at once fell behind while it compiled, and the
    /// backlog (up to <see cref="WriteLoop.MaxInFlight"/> writes, hundreds of connections) kept the
    /// first seconds of the run over the SLO.
    /// </summary>
    public const double WarmupRampSeconds = 5;
    /// <summary>
    /// Seconds without writes between the warm-up and the run: the service compiles its hot paths
    /// again, optimised, in the background, and with both cores busy that work waited for the load
    /// to stop (the service took 117 µs of CPU a write before a fault and 78 µs after it).
    /// </summary>
    public const double WarmupRestSeconds = 2;

    /// <summary>The warm-up's writes: its ramp's, then <see cref="WarmupSeconds"/> at <see cref="Rate"/>.</summary>
    public long WarmupWrites => WriteLoop.RampWrites(Rate, WarmupRampSeconds) + (long)Math.Floor(Rate * WarmupSeconds + 1e-9);
    /// <summary>Seconds after the start at which the fault command runs.</summary>
    public required double FaultAt { get; init; }
    /// <summary>The fault: a command for <c>/bin/bash -c</c>, or, with <see cref="FaultAction"/>, what the result calls it.</summary>
    public required string FaultCommand { get; init; }
    /// <summary>A fault crash carries out itself (a matrix's), writing to the log it is given; its exit code. Null: run <see cref="FaultCommand"/>.</summary>
    internal Func<Control.FaultLog, int>? FaultAction { get; init; }

    /// <summary>
    /// Run once the writes and the fault are over, before anything is read back: waits until the servers are whole
    /// (a failover engine done demoting an old primary whose writes it discards); false when they did not become so.
    /// </summary>
    internal Func<bool>? Settle { get; init; }
    public KeyRange Items { get; init; } = new(1, 2000);
    /// <summary>Location ids 1..Locations exist in the data set; item writes use them.</summary>
    public long Locations { get; init; } = 100_000;
    /// <summary>Blocks of five location ids: the writes of a run can send this × 5 different sets.</summary>
    public long LocationBlocks => Locations / ItemLocations.BlockSize;
    public long TimeoutMs { get; init; } = 3_000;
    /// <summary>The p99 the timeline measures the recovery against (<see cref="Timeline.RunTimeline.P99BackS"/>).</summary>
    public double SloMs { get; init; } = 10;
    public double RecoverSeconds { get; init; } = 60;
    /// <summary>
    /// The architecture behind a cache (postgres for postgres-redis-cache): every acknowledged key is
    /// read once right after its acknowledgement (so the cache holds it) and, after recovery, both
    /// through the tested architecture and through this one; differences are stale cache entries.
    /// </summary>
    public string? TruthStorage { get; init; }
    public required string Out { get; init; }
    public required string Label { get; init; }

    /// <summary>How many writes the timer issues: rate × seconds, rounded down.</summary>
    public long PlannedWrites => (long)Math.Floor(Rate * Seconds + 1e-9);

    /// <summary>
    /// The checks that involve more than one option (each option's own range is checked while
    /// parsing): the fault must strike during the writes, and a run must plan at least one write,
    /// and for items no more than there are distinct location sets.
    /// </summary>
    public CrashOptions Validated()
    {
        if (FaultAt >= Seconds)
            throw new InputException($"--fault-at: '{Format(FaultAt)}' must be below --seconds ({Format(Seconds)})");
        if (PlannedWrites < 1) throw new InputException("--rate × --seconds must plan at least one write");
        var sets = LocationBlocks * ItemLocations.BlockSize;
        if (Kind == CrashKind.Item && PlannedWrites > sets)
            throw new InputException($"--rate × --seconds must be at most {sets} for --kind item with --locations {Locations} (so that no two writes send the same set), got {PlannedWrites}");
        return this;
    }

    private static string Format(double value) => value.ToString(CultureInfo.InvariantCulture);
}
