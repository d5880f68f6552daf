using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Kv;
using IntegrationService.Queues;

namespace IntegrationService.Storage;

/// <summary>
/// One selectable storage architecture (<c>?storage=name</c>): the stores it serves, the durability
/// it offers (stated so benchmark readers can compare like with like), and the backends it depends on
/// (by health-check name): <see cref="Backends"/> it cannot serve without, <see cref="Caches"/> whose
/// loss only slows it.
/// </summary>
public sealed record StorageArchitecture(
    string Name,
    string Description,
    string Durability,
    IAuthorStore? Authors,
    IItemStore? Items,
    IReadOnlyList<string> Backends,
    IReadOnlyList<string> Caches)
{
    /// <summary>The message queue it serves (<c>/write/{queue}</c>, <c>/read/{queue}</c>), if any.</summary>
    public IQueueStore? Queue { get; init; }

    /// <summary>The key-value store it serves (<c>/v0/entity</c>), if any.</summary>
    public IKvStore? Kv { get; init; }
}
