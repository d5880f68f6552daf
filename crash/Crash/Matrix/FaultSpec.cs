using Crash.Catalogue;

namespace Crash.Matrix;

/// <summary>
/// One fault of the vocabulary: its name (script/crashtest --inject carries it out), what it hits,
/// and the catalogue promise a run with it is checked against.
/// </summary>
public sealed record FaultSpec(string Name, FaultTarget Target, Promise Promise, string Description)
{
    /// <summary>What the architecture promises to lose at most under this fault (a <see cref="Loss"/> word).</summary>
    public string Promised(CatalogueEntry entry) =>
        Promise == Promise.PowerLoss ? entry.Durability.PowerLoss : entry.Durability.ProcessCrash;

    /// <summary>The processes the fault hits for <paramref name="entry"/>: its servers, or none (the service).</summary>
    public IReadOnlyList<string> Targets(CatalogueEntry entry) => Target == FaultTarget.Servers ? entry.Servers : [];
}
