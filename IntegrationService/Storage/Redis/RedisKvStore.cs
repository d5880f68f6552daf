using IntegrationService.Kv;
using StackExchange.Redis;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// Key-value pairs as Redis strings under <c>kv:&lt;key&gt;</c> (the prefix keeps them apart from
/// the item links on the persistent instance): GET, SET, DEL, one command each. On the Redis
/// Cluster the client sends each to the master of the key's slot.
/// </summary>
public sealed class RedisKvStore(RedisConnection redis) : IKvStore
{
    public const string Prefix = "kv:";

    public static RedisKey Key(string key) => Prefix + key;

    public async Task<byte[]?> GetAsync(string key, CancellationToken cancellationToken)
    {
        var value = await redis.RunAsync(db => db.StringGetAsync(Key(key)));
        return value.IsNull ? null : (byte[])value!;
    }

    public Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken) =>
        redis.RunAsync(db => db.StringSetAsync(Key(key), value));

    public Task DeleteAsync(string key, CancellationToken cancellationToken) =>
        redis.RunAsync(db => db.KeyDeleteAsync(Key(key)));
}
