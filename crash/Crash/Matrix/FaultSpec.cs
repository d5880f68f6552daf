using Harness.Catalogue;
using Crash.Control;
using Crash.RunLengths;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace Crash.Matrix;

/// <summary>
/// One fault of the vocabulary: its name, what it hits, the catalogue promise a run with it is
/// checked against, and how crash carries it out.
/// </summary>
public sealed record FaultSpec(string Name, FaultTarget Target, Promise Promise, string Description)
{
    /// <summary>Carries the fault out (<see cref="ServerFaults"/>); its exit code, 0 when it happened and everything was started again.</summary>
    internal Func<FaultContext, int> Run { get; init; } = _ => throw new InvalidOperationException("a fault without an action");

    /// <summary>What bounds how long it keeps its targets from answering (<see cref="BudgetFor"/>).</summary>
    public FaultLength Length { get; init; }

    /// <summary>How long the fault may keep <paramref name="entry"/>'s targets from answering: the run lasts at least this past the fault's start (<see cref="RunLength"/>).</summary>
    public FaultBudget BudgetFor(StorageDescription entry, RestartBudgets budgets, double stopSeconds) => Length switch
    {
        FaultLength.ServersRestart => budgets.ServersRestart(Targets(entry)),
        FaultLength.ServiceRestart => budgets.ServiceRestart(),
        _ => FaultBudget.Stop(StopSeconds(entry, stopSeconds)),
    };

    /// <summary>
    /// How long a stop fault keeps its targets stopped: --stop-seconds, and for a failover fault at least three
    /// times the time the primary must be silent before its failover starts, so that the failover happens and
    /// the old primary wakes up after it (a zombie leader).
    /// </summary>
    public double StopSeconds(StorageDescription entry, double stopSeconds) =>
        Promise == Promise.Failover && entry.Replication is { } replication ? Math.Max(stopSeconds, 3 * replication.DetectionMs / 1000.0) : stopSeconds;

    /// <summary>What the architecture promises to lose at most under this fault (a <see cref="Loss"/> word).</summary>
    public string Promised(StorageDescription entry) => Promise switch
    {
        Promise.PowerLoss => entry.Durability.PowerLoss,
        Promise.Failover => entry.Replication?.FailoverLoss ?? throw new InvalidOperationException($"{entry.Name} is not replicated: {Name} does not apply"),
        _ => entry.Durability.ProcessCrash,
    };

    /// <summary>
    /// Whether a row of this fault on <paramref name="entry"/> is a distribution, run --failover-repeats times: a failover,
    /// or a power loss of a replicated architecture, which cuts every node at once (its data directory holds every
    /// node's, on one power-loss layer) and so is a failure of the whole topology, not of one server.
    /// </summary>
    public bool IsRepeatedOn(StorageDescription entry) => Promise == Promise.Failover || (Promise == Promise.PowerLoss && entry.Replication is not null);

    /// <summary>Whether the fault applies to <paramref name="entry"/>: a failover only to a replicated architecture.</summary>
    public bool AppliesTo(StorageDescription entry) => Promise != Promise.Failover || entry.Replication is not null;

    /// <summary>
    /// The window a run with this fault is checked against, in ms: lossWindowMs for <see cref="Loss.Window"/>,
    /// and for <see cref="Loss.SinceSnapshot"/> the stated snapshot interval (lossWindowMs too), taken as a
    /// window because a run cannot see when the last snapshot completed; a process crash's own
    /// processCrashWindowMs where the catalogue states one (a kill loses less than a power loss). Null for
    /// nothing and anything, or where the catalogue states no window.
    /// </summary>
    public long? WindowMs(StorageDescription entry) => Promised(entry) is Loss.Window or Loss.SinceSnapshot
        ? Promise == Promise.ProcessCrash ? entry.ProcessCrashWindowMs() : entry.Durability.LossWindowMs
        : null;

    /// <summary>The processes the fault hits for <paramref name="entry"/>: its servers, or none (the service).</summary>
    public IReadOnlyList<string> Targets(StorageDescription entry) => Target == FaultTarget.Servers ? entry.Servers : [];
}
