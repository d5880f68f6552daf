using IntegrationService.Storage;

namespace IntegrationService.Http;

/// <summary>
/// One architecture in <c>GET /storages</c>, the catalogue every tool reads: what it serves, the
/// servers it runs on (<c>script/services</c> names: <see cref="Servers"/> it needs, <see cref="Caches"/>
/// whose loss only slows it), its stated durability, its replication (replicated architectures only),
/// and the names it answers to.
/// </summary>
public sealed record StorageDescription(
    string Name,
    string[] Aliases,
    string Description,
    string[] Serves,
    string[] Servers,
    string[] Caches,
    DurabilityDescription Durability,
    QueueDeliveryPaths? Delivery,
    bool Shardable,
    bool IsDefault,
    bool IsKvDefault,
    ReplicationDescription? Replication = null);
