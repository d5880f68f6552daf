using System.IO.Hashing;
using System.Text;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// Rendezvous (highest-random-weight) hashing: a key belongs to the node whose weight for it is the
/// highest, the weight being XxHash64 of the key's UTF-8 bytes seeded with the node's own hash. Every
/// node computes the same owner from the same node list, in any order; adding or removing a node moves
/// only the keys it gains or held (about 1/N of them).
/// </summary>
public sealed class RendezvousHashing
{
    private readonly string[] _nodes;
    private readonly long[] _seeds;

    public RendezvousHashing(IReadOnlyList<string> nodes)
    {
        if (nodes.Count == 0) throw new ArgumentException("At least one node is needed.", nameof(nodes));
        _nodes = nodes.ToArray();
        _seeds = _nodes.Select(n => unchecked((long)XxHash64.HashToUInt64(Encoding.UTF8.GetBytes(n)))).ToArray();
    }

    public IReadOnlyList<string> Nodes => _nodes;

    /// <summary>The node that owns <paramref name="key"/>.</summary>
    public string Owner(string key) => _nodes[OwnerIndex(key)];

    /// <summary>The index in <see cref="Nodes"/> of the node that owns <paramref name="key"/>.</summary>
    public int OwnerIndex(string key)
    {
        Span<byte> stack = stackalloc byte[256];
        var length = Encoding.UTF8.GetByteCount(key);
        var bytes = length <= stack.Length ? stack[..length] : new byte[length];
        Encoding.UTF8.GetBytes(key, bytes);
        var best = 0;
        var bestWeight = 0UL;
        for (var i = 0; i < _nodes.Length; i++)
        {
            var weight = XxHash64.HashToUInt64(bytes, _seeds[i]);
            // Ties (practically never) go to the node named first in ordinal order, the same on every node.
            if (i == 0 || weight > bestWeight || (weight == bestWeight && string.CompareOrdinal(_nodes[i], _nodes[best]) < 0))
            {
                best = i;
                bestWeight = weight;
            }
        }
        return best;
    }
}
