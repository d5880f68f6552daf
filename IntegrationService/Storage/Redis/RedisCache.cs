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
/// </summary>
public sealed class RedisCache(RedisConnections connections, IOptions<RedisOptions> options, ILogger<RedisCache> logger) : BackgroundService
{
    private static readonly TimeSpan RetryInterval = TimeSpan.FromSeconds(1);
    private readonly TimeSpan _ttl = TimeSpan.FromSeconds(options.Value.CacheTtlSeconds);
    private readonly ConcurrentDictionary<string, byte> _pendingInvalidations = new();
    private RedisConnection Redis => connections.Cache;

    /// <summary>The cached bytes, or null on a miss, a pending invalidation or an unreachable cache.</summary>
    public async Task<byte[]?> GetAsync(string key)
    {
        if (!_pendingInvalidations.IsEmpty && _pendingInvalidations.ContainsKey(key)) return null;
        try
        {
            var value = await Redis.RunAsync(db => db.StringGetAsync(key));
            return value.IsNull ? null : (byte[]?)value;
        }
        catch (StorageUnavailableException)
        {
            return null;
        }
    }

    /// <summary>Fills the cache without waiting for Redis to answer.</summary>
    public void Set(string key, byte[] value)
    {
        if (!_pendingInvalidations.IsEmpty && _pendingInvalidations.ContainsKey(key)) return;
        Redis.Send(db => db.StringSet(key, value, _ttl, When.Always, CommandFlags.FireAndForget));
    }

    /// <summary>Deletes the key after a write; if Redis is away the delete is retried later.</summary>
    public async Task InvalidateAsync(string key)
    {
        try
        {
            await Redis.RunAsync(db => db.KeyDeleteAsync(key));
        }
        catch (StorageUnavailableException e)
        {
            _pendingInvalidations.TryAdd(key, 0);
            logger.LogWarning("Cache invalidation of {Key} deferred: {Reason}", key, e.Message);
        }
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(RetryInterval);
        while (await WaitForNextTickAsync(timer, stoppingToken))
        {
            foreach (var key in _pendingInvalidations.Keys)
            {
                try
                {
                    await Redis.RunAsync(db => db.KeyDeleteAsync(key));
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
