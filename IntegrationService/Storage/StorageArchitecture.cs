using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Kv;
using IntegrationService.Queues;

namespace IntegrationService.Storage;

/// <summary>
/// One selectable storage architecture (<c>?storage=name</c>): the stores it serves, the durability
/// it offers (stated so benchmark readers can compare like with like), and the backends it depends on
/// (by health-check name, which is also the server's name in <c>script/services</c>):
/// <see cref="Backends"/> it cannot serve without, <see cref="Caches"/> whose loss only slows it.
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

    /// <summary>The stated durability as data (<see cref="Durability"/> says the same in words).</summary>
    public DurabilityFacts Facts { get; init; } = DurabilityFacts.Synchronous;

    /// <summary>
    /// For a queue: what each of its read paths promises. Every queue's by default (the store interface holds each to
    /// it); a replicated queue whose failover can undo a confirmed removal states less (nats-r3).
    /// </summary>
    public QueueDeliveryPaths? Delivery
    {
        get => Queue is null ? null : _delivery ?? QueueDeliveryPaths.OfEveryQueue;
        init => _delivery = value;
    }

    private readonly QueueDeliveryPaths? _delivery;

    /// <summary>Other names the queue routes accept (the original study's spellings).</summary>
    public IReadOnlyList<string> Aliases { get; init; } = [];

    /// <summary>A replicated architecture's topology and failover (null: one server, no failover).</summary>
    public ReplicationDescription? Replication { get; init; }

    /// <summary>Whether each node of a sharded key-value cluster can have one of its own (<c>script/cluster</c>).</summary>
    public bool Shardable { get; init; }
}
