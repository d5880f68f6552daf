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
        _ => FaultBudget.Stop(stopSeconds),
    };

    /// <summary>What the architecture promises to lose at most under this fault (a <see cref="Loss"/> word).</summary>
    public string Promised(StorageDescription entry) =>
        Promise == Promise.PowerLoss ? entry.Durability.PowerLoss : entry.Durability.ProcessCrash;

    /// <summary>
    /// The window a run with this fault is checked against, in ms: lossWindowMs for <see cref="Loss.Window"/>,
    /// and for <see cref="Loss.SinceSnapshot"/> the stated snapshot interval (lossWindowMs too), taken as a
    /// window because a run cannot see when the last snapshot completed. Null for nothing and anything, or
    /// where the catalogue states no lossWindowMs.
    /// </summary>
    public long? WindowMs(StorageDescription entry) => Promised(entry) is Loss.Window or Loss.SinceSnapshot ? entry.Durability.LossWindowMs : null;

    /// <summary>The processes the fault hits for <paramref name="entry"/>: its servers, or none (the service).</summary>
    public IReadOnlyList<string> Targets(StorageDescription entry) => Target == FaultTarget.Servers ? entry.Servers : [];
}
