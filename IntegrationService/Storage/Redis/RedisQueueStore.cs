using System.Buffers.Text;
using IntegrationService.Queues;
using StackExchange.Redis;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// A queue in one Redis list (the redis-aof and redis-rdb instances): a write numbers the message
/// and RPUSHes <c>id:message</c> in one script (one round trip, atomic); a read is LPOP, which
/// hands each element to one caller only.
/// </summary>
public sealed class RedisQueueStore(RedisConnection redis) : IQueueStore
{
    /// <summary>The list of messages and the counter that numbers them (read by the fingerprint tool too).</summary>
    internal static readonly RedisKey[] Keys = ["queue:messages", "queue:last-id"];

    private const string PushScript =
        """
        local id = redis.call('INCR', KEYS[2])
        redis.call('RPUSH', KEYS[1], id .. ':' .. ARGV[1])
        return id
        """;

    // The length and the removal in one script, so the count is of what was removed. UNLINK frees
    // the list's memory off the main thread; the counter stays, so ids keep growing after a purge.
    private const string PurgeScript =
        """
        local depth = redis.call('LLEN', KEYS[1])
        redis.call('UNLINK', KEYS[1])
        return depth
        """;

    public async Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        var id = await redis.RunAsync(db => db.ScriptEvaluateAsync(PushScript, Keys, [message]));
        return (long)id;
    }

    public async Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken)
    {
        var element = await redis.RunAsync(db => db.ListLeftPopAsync(Keys[0]));
        return element.IsNull ? null : Parse((byte[])element!);
    }

    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        redis.RunAsync(db => db.ListLengthAsync(Keys[0]));

    /// <summary>UNLINK of the queue's list (its counter and every other key stay).</summary>
    public async Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        (long)await redis.RunAsync(db => db.ScriptEvaluateAsync(PurgeScript, [Keys[0]]));

    /// <summary>Splits an element <c>id:message</c>.</summary>
    internal static QueueMessage Parse(byte[] element)
    {
        var colon = Array.IndexOf(element, (byte)':');
        if (colon < 0 || !Utf8Parser.TryParse(element.AsSpan(0, colon), out long id, out var consumed) || consumed != colon)
        {
            throw new FormatException("A queue element is not 'id:message'.");
        }
        return new QueueMessage(id, element.AsMemory(colon + 1));
    }
}
