using IntegrationService.Seeding;

namespace Tank.Ammo.Workloads;

/// <summary>
/// The key-value API: read = GET /v0/entity?id=key&lt;N&gt;, update = PUT of an existing key
/// (0..--keys−1 plus those inserted so far), insert = PUT of the next new key (key&lt;--keys&gt;,
/// then the one after…), so "latest" reads chase the inserts as in YCSB D.
/// </summary>
public sealed class KvWorkloadApi(AmmoOptions options) : WorkloadApi
{
    private readonly string _storage = Uri.EscapeDataString(options.Storage);
    private long _inserted;

    public override long KeyCount => options.Keys + _inserted;

    public override HttpRequestSpec Read(long key) => AmmoGenerator.Get($"/v0/entity?id=key{key}&storage={_storage}", options);

    public override HttpRequestSpec Update(long key, SplitMix64 random) => AmmoGenerator.KvPut(options, _storage, key, random);

    public override HttpRequestSpec Insert(SplitMix64 random) => AmmoGenerator.KvPut(options, _storage, options.Keys + _inserted++, random);
}
