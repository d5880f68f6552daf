using IntegrationService.Http;
using IntegrationService.Storage.Redis;
using StackExchange.Redis;

namespace IntegrationService.Seeding;

/// <summary>
/// A Redis instance's fingerprint, through the service's own connection: its keys (summed over
/// the masters of a cluster) and, by what the architectures on it serve, the queue's length and
/// last id, or an MD5 of the link sets of items 1–1000. Reads only.
/// </summary>
internal static class RedisFingerprint
{
    public static async Task<ServerFingerprint> ReadAsync(RedisConnection redis, IReadOnlySet<string> serves, CancellationToken cancellationToken)
    {
        var endpoint = PortProbe.Display(redis.Endpoint);
        var (host, port) = PortProbe.Split(endpoint);
        if (!await PortProbe.IsOpenAsync(host, port, cancellationToken)) return ServerFingerprint.Down(redis.Name, endpoint);
        await redis.ConnectAsync();
        var fields = new List<KeyValuePair<string, object?>>
        {
            new("keys", await redis.RunAsync(async db =>
            {
                long keys = 0;
                foreach (var server in db.Multiplexer.GetServers().Where(s => !s.IsReplica)) keys += await server.DatabaseSizeAsync();
                return keys;
            })),
        };
        if (serves.Contains(StorageApi.Queue))
        {
            var (messages, lastId) = (RedisQueueStore.Keys[0], RedisQueueStore.Keys[1]);
            fields.Add(new("messages", await redis.RunAsync(db => db.ListLengthAsync(messages))));
            fields.Add(new("last-id", (string?)await redis.RunAsync(db => db.StringGetAsync(lastId))));
        }
        if (serves.Contains(StorageApi.Item))
        {
            var keys = Enumerable.Range(1, 1000).Select(id => (RedisKey)RedisPersistentItemStore.Key(id)).ToArray();
            var values = await redis.RunAsync(db => db.StringGetAsync(keys));
            using var digest = new FingerprintDigest();
            foreach (var value in values) digest.Add(value.IsNull ? null : (string?)value);
            fields.Add(new("sample", digest.Hex()));
        }
        return ServerFingerprint.Of(redis.Name, endpoint, fields);
    }
}
