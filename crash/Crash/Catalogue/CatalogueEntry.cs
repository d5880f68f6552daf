namespace Crash.Catalogue;

/// <summary>
/// One architecture of the service's catalogue (<c>GET /storages</c>, <c>IntegrationService catalogue --json</c>),
/// the fields the crash test reads: what it serves, the servers a fault hits (script/services names),
/// what it promises to keep, and how a queue delivers.
/// </summary>
public sealed record CatalogueEntry
{
    public string Name { get; init; } = "";
    public string[] Aliases { get; init; } = [];
    /// <summary>Author, Item, Queue, KeyValue.</summary>
    public string[] Serves { get; init; } = [];
    /// <summary>The servers it needs: the targets of a server fault.</summary>
    public string[] Servers { get; init; } = [];
    /// <summary>Servers whose loss only slows it (a cache in front of <see cref="Servers"/>).</summary>
    public string[] Caches { get; init; } = [];
    public CatalogueDurability Durability { get; init; } = new();
    /// <summary>The key-value API can run on it as a sharded cluster (script/cluster up --storage).</summary>
    public bool Shardable { get; init; }
    /// <summary>at-most-once or at-least-once (queues only).</summary>
    public string? Delivery { get; init; }
}
