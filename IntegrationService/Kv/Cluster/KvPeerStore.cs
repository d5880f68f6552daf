using IntegrationService.Storage;
using IntegrationService.Storage.Limits;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// Another node's store of one architecture, as the node that received a request for one of its keys
/// sees it: each call is run by the owner (<see cref="KvCluster.ForwardAsync"/>) and its outcome given
/// back as the owner's store gave it (a value, none, or the same <see cref="StorageUnavailableException"/>
/// or <see cref="BackendOverloadedException"/>), so the handler answers a forwarded key exactly as a
/// local one.
/// </summary>
internal sealed class KvPeerStore(KvCluster cluster, KvPeer owner, string? storage) : IKvStore
{
    public async Task<byte[]?> GetAsync(string key, CancellationToken cancellationToken)
    {
        var reply = Checked(await cluster.ForwardAsync(owner, KvPeerOp.Get, storage, key, default, cancellationToken));
        return reply.Outcome == KvPeerOutcome.Value ? reply.Value : null;
    }

    public async Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken) =>
        Checked(await cluster.ForwardAsync(owner, KvPeerOp.Put, storage, key, value, cancellationToken));

    public async Task DeleteAsync(string key, CancellationToken cancellationToken) =>
        Checked(await cluster.ForwardAsync(owner, KvPeerOp.Delete, storage, key, default, cancellationToken));

    private KvPeerReply Checked(KvPeerReply reply) => reply.Outcome switch
    {
        KvPeerOutcome.Unavailable => throw new StorageUnavailableException(reply.Backend, reply.Detail),
        KvPeerOutcome.Overloaded => throw new BackendOverloadedException(reply.Backend, reply.Detail),
        KvPeerOutcome.Refused => throw new StorageUnavailableException($"node {owner.Url}", $"the owner did not serve the request: {reply.Detail}"),
        _ => reply,
    };
}
