namespace Tank.Bench;

/// <summary>
/// One architecture of the service's catalogue (<c>IntegrationService catalogue --json</c>, the
/// same as <c>GET /storages</c>), reduced to what the bench needs: the APIs it serves, the
/// script/services servers (and caches) it runs on, its stated durability, and whether a node of a
/// sharded key-value cluster can have one of its own.
/// </summary>
public sealed record CatalogueEntry(
    string Name,
    IReadOnlyList<string> Aliases,
    IReadOnlyList<string> Serves,
    IReadOnlyList<string> Servers,
    IReadOnlyList<string> Caches,
    string Durability,
    bool Shardable)
{
    /// <summary>What a kill -9 and a power loss lose and the loss window, as the catalogue states them ("" when it does not).</summary>
    public string DurabilityClass { get; init; } = "";

    public bool Serve(string api) => Serves.Contains(api, StringComparer.Ordinal);

    public bool IsCalled(string name) =>
        string.Equals(Name, name, StringComparison.OrdinalIgnoreCase) || Aliases.Contains(name, StringComparer.OrdinalIgnoreCase);
}
