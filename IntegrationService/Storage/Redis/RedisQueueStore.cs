using System.Buffers.Text;
using IntegrationService.Queues;
using StackExchange.Redis;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// A queue in one Redis list (the redis-aof and redis-rdb instances): a write numbers the message
/// and RPUSHes <c>id:message</c> in one script (one round trip, atomic); a read is LPOP, which
/// hands each element to one caller only.
/// <para>
/// The leased read is one script too: it moves the head element into the hash
/// <c>queue:leased</c> under a random receipt, with the lease's end (Redis's own clock, TIME) in
/// the sorted set <c>queue:leases</c>. An ack removes both while the lease has not ended; a nack
/// pushes the element back to the head at once. Leases that ended are pushed back to the head,
/// oldest id first, by the next leased read (in its script, before it takes) and by a reaper every
/// <see cref="ReapEvery"/> once this process has read the queue. The leases are keys like the
/// list: they survive a restart as far as the instance's persistence keeps writes (AOF every
/// second, or the last RDB snapshot).
/// </para>
/// </summary>
public sealed class RedisQueueStore : IQueueStore, IAsyncDisposable
{
    /// <summary>The list of messages and the counter that numbers them (read by the fingerprint tool too).</summary>
    internal static readonly RedisKey[] Keys = ["queue:messages", "queue:last-id"];

    /// <summary>The list, the leases' ends (receipt → milliseconds) and the leased elements (receipt → element).</summary>
    private static readonly RedisKey[] LeaseKeys = ["queue:messages", "queue:leases", "queue:leased"];

    /// <summary>How often leases that ended are given back when no leased read comes to do it.</summary>
    public static readonly TimeSpan ReapEvery = TimeSpan.FromSeconds(1);

    // Gives back every lease that ended: its element goes back to the head of the list, the
    // smallest id first. Redis time in milliseconds is in `now`.
    private const string ReapLua =
        """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local ended = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
        if #ended > 0 then
          local back = {}
          for _, receipt in ipairs(ended) do
            local element = redis.call('HGET', KEYS[3], receipt)
            if element then back[#back + 1] = element end
            redis.call('HDEL', KEYS[3], receipt)
          end
          redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
          table.sort(back, function(a, b) return tonumber(string.match(a, '^%d+')) > tonumber(string.match(b, '^%d+')) end)
          for _, element in ipairs(back) do redis.call('LPUSH', KEYS[1], element) end
        end
        """;

    private const string LeaseScript = ReapLua + "\n" +
        """
        local element = redis.call('LPOP', KEYS[1])
        if not element then return false end
        redis.call('HSET', KEYS[3], ARGV[1], element)
        redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
        return element
        """;

    private const string ReapScript = ReapLua + "\nreturn #ended";

    // An ack or a nack of a lease that has not ended; ARGV[2] = 1 pushes the element back (nack).
    private const string EndLeaseScript =
        """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local ends = redis.call('ZSCORE', KEYS[2], ARGV[1])
        if not ends or tonumber(ends) <= now then return 0 end
        local element = redis.call('HGET', KEYS[3], ARGV[1])
        redis.call('ZREM', KEYS[2], ARGV[1])
        redis.call('HDEL', KEYS[3], ARGV[1])
        if ARGV[2] == '1' and element then redis.call('LPUSH', KEYS[1], element) end
        return 1
        """;

    private readonly RedisConnection _redis;
    private readonly LeaseReaper _reaper;

    public RedisQueueStore(RedisConnection redis)
    {
        _redis = redis;
        _reaper = new LeaseReaper(_ => redis.RunAsync(db => db.ScriptEvaluateAsync(ReapScript, LeaseKeys)), ReapEvery);
    }

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
        var id = await _redis.RunAsync(db => db.ScriptEvaluateAsync(PushScript, Keys, [message]));
        return (long)id;
    }

    public async Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken)
    {
        _reaper.Start();
        var element = await _redis.RunAsync(db => db.ListLeftPopAsync(Keys[0]));
        return element.IsNull ? null : Parse((byte[])element!);
    }

    public async Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        _reaper.Start();
        var receipt = QueueLease.NewToken();
        var element = await _redis.RunAsync(db => db.ScriptEvaluateAsync(LeaseScript, LeaseKeys, [receipt, (long)lease.TotalMilliseconds]));
        if (element.IsNull) return null;
        var message = Parse((byte[])element!);
        return new LeasedMessage(message.Id, message.Body, receipt);
    }

    public Task<bool> AckAsync(string receipt, CancellationToken cancellationToken) => EndLeaseAsync(receipt, giveBack: false);

    public Task<bool> NackAsync(string receipt, CancellationToken cancellationToken) => EndLeaseAsync(receipt, giveBack: true);

    private async Task<bool> EndLeaseAsync(string receipt, bool giveBack) =>
        (long)await _redis.RunAsync(db => db.ScriptEvaluateAsync(EndLeaseScript, LeaseKeys, [receipt, giveBack ? 1 : 0])) == 1;

    public ValueTask DisposeAsync() => _reaper.DisposeAsync();

    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        _redis.RunAsync(db => db.ListLengthAsync(Keys[0]));

    /// <summary>UNLINK of the queue's list (its counter and every other key stay).</summary>
    public async Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        (long)await _redis.RunAsync(db => db.ScriptEvaluateAsync(PurgeScript, [Keys[0]]));

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
