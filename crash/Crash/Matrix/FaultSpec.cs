using Harness.Catalogue;
using Crash.Control;
using IntegrationService.Http;

namespace Crash.Matrix;

/// <summary>
/// One fault of the vocabulary: its name, what it hits, the catalogue promise a run with it is
/// checked against, and how crash carries it out.
/// </summary>
public sealed record FaultSpec(string Name, FaultTarget Target, Promise Promise, string Description)
{
    /// <summary>Carries the fault out (<see cref="ServerFaults"/>); its exit code, 0 when it happened and everything was started again.</summary>
    internal Func<FaultContext, int> Run { get; init; } = _ => throw new InvalidOperationException("a fault without an action");

    /// <summary>What the architecture promises to lose at most under this fault (a <see cref="Loss"/> word).</summary>
    public string Promised(StorageDescription entry) =>
        Promise == Promise.PowerLoss ? entry.Durability.PowerLoss : entry.Durability.ProcessCrash;

    /// <summary>The processes the fault hits for <paramref name="entry"/>: its servers, or none (the service).</summary>
    public IReadOnlyList<string> Targets(StorageDescription entry) => Target == FaultTarget.Servers ? entry.Servers : [];
}
