using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using Crash.Check;
using Tank.Runner;

namespace Crash;

/// <summary>
/// What every run reports, whatever it wrote (snake_case JSON, times in seconds since the run
/// started): the run, the fault, the writes and how they ended, and the loss columns a matrix's
/// summary compares (<see cref="Acked"/>, <see cref="Lost"/>, <see cref="Duplicated"/>,
/// <see cref="InDoubt"/>, <see cref="Stale"/>), with the check against the catalogue once judged.
/// </summary>
public abstract record RunResult
{
    public const int ExamplesPerClass = 5;

    public static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        WriteIndented = true,
        // A file for people and scripts, never HTML: keep &&, > and quotes in commands and values readable.
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    public string Label { get; init; } = "";
    public string Storage { get; init; } = "";
    public string Kind { get; init; } = "";
    /// <summary>The fault's name when a matrix ran it (null for a lone <c>crash run</c>).</summary>
    public string? Fault { get; init; }
    /// <summary>The architecture is replicated (the catalogue's replication): a power-loss fault cut every node at once.</summary>
    public bool Replicated { get; init; }
    public string Url { get; init; } = "";
    public string RunId { get; init; } = "";
    public DateTimeOffset StartedAt { get; init; }
    public double Rate { get; init; }
    /// <summary>Where <see cref="Rate"/> came from: --rate, its default, or share × a bench report's confirmed capacity.</summary>
    public string RateSource { get; init; } = "";
    /// <summary>A run under load: <see cref="Rate"/> is a share of a bench report's confirmed capacity (its timeline is the one to read).</summary>
    public bool RateFromReport { get; init; }
    /// <summary>The bench report the rates were taken from (relative to the checkout, e.g. reports/20261127T074707Z; also set where this run fell back to the fixed rate); null without one.</summary>
    public string? RateReport { get; init; }
    /// <summary>Seconds of writes, as run.</summary>
    public double Seconds { get; init; }
    /// <summary>--seconds as asked; more in <see cref="Seconds"/> when the run was extended to outlast its fault.</summary>
    public double RequestedSeconds { get; init; }
    /// <summary>What <see cref="Seconds"/> is made of: "--seconds", or the fault's start, its budget, the held window and the margin.</summary>
    public string SecondsSource { get; init; } = "";
    /// <summary>How long the fault may keep its targets from answering (restart-budgets.json, or --stop-seconds); null when crash does not know the fault.</summary>
    public double? FaultBudgetS { get; init; }
    public long TimeoutMs { get; init; }
    public double FaultAtS { get; init; }
    /// <summary>Second by second: p99 and 503s, and how long p99 took to come back under the SLO after the fault.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public Timeline.RunTimeline? Timeline { get; init; }
    public string FaultCmd { get; init; } = "";
    public int? FaultExitCode { get; init; }
    public double? FaultStartedS { get; init; }
    public double? FaultEndedS { get; init; }
    /// <summary>Cores idle on average while the fault lasted (the machine's, /proc/stat): how starved the failover was.</summary>
    public double? IdleCoresDuringFault { get; init; }
    public string FaultStderrTail { get; init; } = "";
    public string? FaultError { get; init; }
    public long Planned { get; init; }
    public long Sent { get; init; }
    public long Acked { get; init; }
    public FailureCounts Failed { get; init; } = new();
    /// <summary>Operations whose outcome is in doubt (timeout, connection error, 5xx): writes that may have been applied, and for a queue reads that may have taken a message.</summary>
    public long InDoubt { get; init; }
    /// <summary>Writes not sent because the cap on writes in flight was reached.</summary>
    public long Skipped { get; init; }
    public long Lost { get; init; }
    public long Stale { get; init; }
    /// <summary>Queue messages delivered more than once (0 for keys).</summary>
    public long Duplicated { get; init; }
    /// <summary>
    /// How long before the fault's start the oldest lost write was acknowledged, in ms (<see cref="AckAges"/>;
    /// a lost or stale key counts its oldest acknowledged write that is gone): what a window promise is checked on. Null: none lost.
    /// </summary>
    public long? OldestLostAgeMs { get; init; }
    /// <summary>
    /// The same age of the oldest write the store still had to keep at the fault (every acknowledged key write;
    /// a queue's messages not yet read): a window is checked only when this is older than it. Null: none.
    /// </summary>
    public long? OldestHeldAgeMs { get; init; }
    /// <summary>Every lost write's age at the fault, for the check (summary.json keeps the oldest, and the check how many were older than the window).</summary>
    [JsonIgnore]
    public IReadOnlyList<long> LostAgesMs { get; init; } = [];
    public double? RecoveryS { get; init; }
    /// <summary>How long writes failed: from the first failed write to the first acknowledged one after the last failure (<see cref="Crash.Recovery.UnavailableS"/>).</summary>
    public double? UnavailableS { get; init; }
    public double? FirstFailureS { get; init; }
    public double? LastFailureS { get; init; }
    /// <summary>
    /// When the servers were whole again after the writes and the fault, before anything was read back (failover
    /// faults: a single primary with its replica in sync, the old primary's discarded writes gone for good); null
    /// where the run did not wait for it.
    /// </summary>
    public double? SettledS { get; init; }
    /// <summary>When the API answered after the writes (the read-back's or the drain's probe); null if it never did within --recover-seconds.</summary>
    public double? ReadBackReadyS { get; init; }
    /// <summary>The run judged against the catalogue's promise for the fault (a matrix sets it).</summary>
    public RowCheck? Check { get; init; }

    public void Write(string path) => File.WriteAllText(path, JsonSerializer.Serialize(this, GetType(), Json) + "\n");

    /// <summary>What the check against the catalogue reads.</summary>
    public abstract RowFacts Facts();

    /// <summary>The lost writes' ages, or null where a result read back from its JSON no longer has them.</summary>
    protected IReadOnlyList<long>? KnownLostAges => LostAgesMs.Count > 0 || OldestLostAgeMs is null ? LostAgesMs : null;

    /// <summary>The one line a run prints on stdout.</summary>
    public abstract string Summary();

    protected string Recovery() =>
        Failed.Total == 0 ? "; no write failed"
        : RecoveryS is { } recovery ? string.Create(CultureInfo.InvariantCulture, $"; API back {recovery:F2} s after the fault") +
            (UnavailableS is { } gone ? string.Create(CultureInfo.InvariantCulture, $", writes failing for {gone:F2} s") : "")
        : "; writes never acknowledged again after the fault";
}
