using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using StackExchange.Redis;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// The read-through cache the decorators share. The cache is an optimisation, never the source
/// of truth: when Redis is unreachable reads go to the store underneath, and an invalidation
/// that could not be sent is remembered and retried until Redis answers — until then reads of
/// that key bypass the cache, so a write acknowledged while Redis was away is never hidden by a
/// stale entry.
/// <para>
/// A miss must not cache a value older than a write that completed before the read began. The
/// plain "read the store, then SET" loses that race: a reader that read the old row before a
/// concurrent write, and sets the key after the write's invalidation, leaves the old value cached
/// for the whole TTL. So a fill needs a lease: the read that misses also stores a random lease
/// token beside the key (one script, one round trip); the invalidation deletes the key and the
/// lease; the fill sets the key only while its own token is still there. A write between the
/// read and the fill therefore voids the fill (the next read misses and fills afresh).
/// </para>
/// </summary>
public sealed class RedisCache(RedisConnections connections, IOptions<RedisOptions> options, ILogger<RedisCache> logger) : BackgroundService
{
    private static readonly TimeSpan RetryInterval = TimeSpan.FromSeconds(1);

    // KEYS[1] the key, KEYS[2] its lease; ARGV[1] a new lease token, ARGV[2] the lease's lifetime (ms).
    private const string ReadScript = """
        local value = redis.call('GET', KEYS[1])
        if value then return value end
        redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
        return false
        """;

    // KEYS[1] the key, KEYS[2] its lease; ARGV[1] the reader's token, ARGV[2] the value, ARGV[3] the TTL (ms).
    private const string FillScript = """
        if redis.call('GET', KEYS[2]) == ARGV[1] then
          redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
          redis.call('DEL', KEYS[2])
        end
        return 0
        """;

    /// <summary>
    /// How long a lease waits for its fill. A fill that comes later is dropped (only a lost
    /// optimisation): longer than any store call can take within its own timeout.
    /// </summary>
    private static readonly RedisValue LeaseMilliseconds = 60_000;

    private readonly RedisValue _ttlMilliseconds = (long)TimeSpan.FromSeconds(options.Value.CacheTtlSeconds).TotalMilliseconds;
    private readonly ConcurrentDictionary<string, byte> _pendingInvalidations = new();

    /// <summary>Keys whose last write failed with its outcome unknown, and until when reads of them bypass the cache.</summary>
    private readonly ConcurrentDictionary<string, long> _inDoubtUntil = new();

    /// <summary>
    /// How long a key bypasses the cache after a write whose outcome is unknown (a timeout: the
    /// store may still apply it when it resumes). Reads then go to the store, which has the truth,
    /// and fill nothing, so a late commit cannot be hidden behind an older cached value.
    /// </summary>
    public static readonly TimeSpan InDoubtWindow = TimeSpan.FromSeconds(60);
    private RedisConnection Redis => connections.Cache;

    /// <summary>
    /// The cached bytes, or on a miss a lease to fill the key with (<see cref="CacheRead.Lease"/> is 0,
    /// and the value null, when there is nothing to read or fill: a pending invalidation or an
    /// unreachable cache).
    /// </summary>
    public async Task<CacheRead> ReadAsync(string key)
    {
        if (Bypassed(key)) return default;
        var lease = NewLease();
        try
        {
            var result = await Redis.RunAsync(db => db.ScriptEvaluateAsync(ReadScript, [key, LeaseKey(key)], [lease, LeaseMilliseconds]));
            return result.IsNull ? new CacheRead(null, lease) : new CacheRead((byte[]?)result, 0);
        }
        catch (StorageUnavailableException)
        {
            return default;
        }
    }

    /// <summary>
    /// Fills the key after a miss, if no write invalidated it since the read that took
    /// <paramref name="lease"/>; does not wait for Redis to answer.
    /// </summary>
    public void Fill(string key, long lease, byte[] value)
    {
        if (lease == 0 || Bypassed(key)) return;
        Redis.Send(db => db.ScriptEvaluate(FillScript, [key, LeaseKey(key)], [lease, value, _ttlMilliseconds], CommandFlags.FireAndForget));
    }

    /// <summary>
    /// Deletes the key and any fill lease on it after a write; if Redis is away the delete is
    /// retried later (and reads bypass the key until then).
    /// </summary>
    public async Task InvalidateAsync(string key)
    {
        try
        {
            await Redis.RunAsync(db => db.KeyDeleteAsync([key, LeaseKey(key)]));
        }
        catch (StorageUnavailableException e)
        {
            _pendingInvalidations.TryAdd(key, 0);
            logger.LogWarning("Cache invalidation of {Key} deferred: {Reason}", key, e.Message);
        }
    }

    /// <summary>
    /// Runs a write to the store underneath and keeps the key coherent with it: deletes the key
    /// before the write (if the service dies between the commit and the delete after it, the entry
    /// cached before is already gone; what remains possible is a read that refills the old value
    /// between the first delete and the commit, followed by such a crash), and after it. A write
    /// that fails without a clear answer (<see cref="StorageUnavailableException"/>: a timeout, the
    /// store may still apply it when it resumes) deletes the key too, and reads of the key bypass
    /// the cache for <see cref="InDoubtWindow"/>, so a late commit is never hidden.
    /// </summary>
    public async Task<T> WriteAsync<T>(string key, Func<Task<T>> write)
    {
        await InvalidateAsync(key);
        T result;
        try
        {
            result = await write();
        }
        catch (StorageUnavailableException)
        {
            _inDoubtUntil[key] = Environment.TickCount64 + (long)InDoubtWindow.TotalMilliseconds;
            await InvalidateAsync(key);
            throw;
        }
        await InvalidateAsync(key);
        return result;
    }

    private bool Bypassed(string key)
    {
        if (!_pendingInvalidations.IsEmpty && _pendingInvalidations.ContainsKey(key)) return true;
        if (_inDoubtUntil.IsEmpty || !_inDoubtUntil.TryGetValue(key, out var until)) return false;
        if (Environment.TickCount64 < until) return true;
        _inDoubtUntil.TryRemove(KeyValuePair.Create(key, until));
        return false;
    }

    private static string LeaseKey(string key) => key + ":fill-lease";

    // Random, so that service processes sharing the cache never hand out the same token; never 0.
    private static long NewLease() => Random.Shared.NextInt64(1, long.MaxValue);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(RetryInterval);
        while (await WaitForNextTickAsync(timer, stoppingToken))
        {
            foreach (var key in _pendingInvalidations.Keys)
            {
                try
                {
                    await Redis.RunAsync(db => db.KeyDeleteAsync([key, LeaseKey(key)]));
                    _pendingInvalidations.TryRemove(key, out _);
                }
                catch (StorageUnavailableException)
                {
                    break; // still away; try again on the next tick
                }
            }
        }
    }

    private static async Task<bool> WaitForNextTickAsync(PeriodicTimer timer, CancellationToken stoppingToken)
    {
        try
        {
            return await timer.WaitForNextTickAsync(stoppingToken);
        }
        catch (OperationCanceledException)
        {
            return false; // shutting down
        }
    }
}

/// <summary>What <see cref="RedisCache.ReadAsync"/> found: the cached bytes, or a lease to fill the key with after a miss.</summary>
public readonly record struct CacheRead(byte[]? Value, long Lease);
