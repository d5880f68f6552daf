using IntegrationService.Items;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// The concurrency limit per backend server, on stores that answer only when the test says so:
/// calls beyond the limit are refused at once, architectures on the same server share its limit,
/// other servers are not affected, an architecture on two servers needs a permit from both, and
/// every permit comes back whether the call succeeds or fails; with a queue, calls beyond the limit
/// wait their turn, oldest first, and are refused when the queue is full or their wait runs out.
/// </summary>
public sealed class BackendLimitTests
{
    private const int Limit = 2;

    /// <summary>An item store whose calls wait until <see cref="Release"/> (or fail, if told to).</summary>
    private sealed class HeldItems : IItemStore
    {
        private TaskCompletionSource _gate = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _entered;

        public async Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken)
        {
            var gate = _gate.Task;
            Interlocked.Increment(ref _entered);
            await gate;
            return [];
        }

        /// <summary>
        /// Waits until <paramref name="count"/> reads have reached the store since it was made: a
        /// queued call gets its permit on another thread, and a <see cref="Release"/> before it
        /// arrives would open the old gate, not the one it waits on.
        /// </summary>
        public async Task WaitForReadsAsync(int count)
        {
            var waited = System.Diagnostics.Stopwatch.StartNew();
            while (Volatile.Read(ref _entered) < count)
            {
                Assert.True(waited.Elapsed < TimeSpan.FromSeconds(30), $"{Volatile.Read(ref _entered)} of {count} reads reached the store");
                await Task.Delay(1);
            }
        }

        public Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken) =>
            throw new StorageUnavailableException("test", "down");

        public void Release()
        {
            _gate.SetResult();
            _gate = new(TaskCreationOptions.RunContinuationsAsynchronously);
        }
    }

    private readonly HeldItems _memtx = new(), _vinyl = new(), _postgres = new(), _persistent = new();
    private readonly StorageRegistry _registry;

    public BackendLimitTests() => _registry = Registry(queue: 0, waitMs: 1000);

    private StorageRegistry Registry(int queue, int waitMs)
    {
        var options = Options.Create(new StorageOptions
        {
            MaxConcurrentRequestsPerBackend = Limit,
            MaxQueuedRequestsPerBackend = queue,
            MaxQueueWaitMs = waitMs,
        });
        return new StorageRegistry(
            [
                new StorageArchitecture("tarantool-memtx", "", "", null, _memtx, ["tarantool"], []),
                new StorageArchitecture("tarantool-vinyl", "", "", null, _vinyl, ["tarantool"], []),
                new StorageArchitecture("postgres", "", "", null, _postgres, ["postgres"], []),
                new StorageArchitecture("postgres-redis-persistent", "", "", null, _persistent, ["redis-persistent", "postgres"], []),
            ],
            options, Options.Create(new IntegrationService.Kv.KvOptions()), new BackendLimiter(options));
    }

    private Task<IReadOnlyList<Location>> Get(string storage) => Get(_registry, storage);

    private static Task<IReadOnlyList<Location>> Get(StorageRegistry registry, string storage) =>
        registry.Items(storage).GetLocationsAsync(1, CancellationToken.None);

    [Fact]
    public async Task WithAQueueCallsBeyondTheLimitWaitTheirTurnAndBeyondTheQueueAreRefusedAtOnce()
    {
        var registry = Registry(queue: 2, waitMs: 60_000);
        var held = new[] { Get(registry, "tarantool-memtx"), Get(registry, "tarantool-memtx") };
        var queued = new[] { Get(registry, "tarantool-vinyl"), Get(registry, "tarantool-memtx") };
        var refused = await Assert.ThrowsAsync<BackendOverloadedException>(() => Get(registry, "tarantool-vinyl"));
        Assert.Contains("Storage:MaxQueuedRequestsPerBackend", refused.Message);
        Assert.All(queued, call => Assert.False(call.IsCompleted));

        _memtx.Release(); // the held calls end and hand their permits to the queued ones
        await Task.WhenAll(held);
        await _vinyl.WaitForReadsAsync(1);
        await _memtx.WaitForReadsAsync(3);
        _vinyl.Release();
        _memtx.Release();
        await Task.WhenAll(queued);
    }

    [Fact]
    public async Task AQueuedCallWhoseWaitRunsOutIsRefusedAndLeavesThePermitsWhole()
    {
        var registry = Registry(queue: 4, waitMs: 50);
        var held = new[] { Get(registry, "postgres"), Get(registry, "postgres") };
        var refused = await Assert.ThrowsAsync<BackendOverloadedException>(() => Get(registry, "postgres-redis-persistent"));
        Assert.Equal("postgres", refused.Backend);
        Assert.Contains("50 ms", refused.Message);
        _postgres.Release();
        await Task.WhenAll(held);

        // The refused call took no permit of redis-persistent: both of its permits are free.
        var both = new[] { Get(registry, "postgres-redis-persistent"), Get(registry, "postgres-redis-persistent") };
        _persistent.Release();
        await Task.WhenAll(both);
    }

    [Fact]
    public async Task CallsBeyondTheLimitAreRefusedAtOnceAndArchitecturesOnTheSameServerShareIt()
    {
        var held = new[] { Get("tarantool-memtx"), Get("tarantool-memtx") };

        var refused = await Assert.ThrowsAsync<BackendOverloadedException>(() => Get("tarantool-vinyl"));
        Assert.Equal("tarantool", refused.Backend);
        Assert.Contains("Storage:MaxConcurrentRequestsPerBackend", refused.Message);
        await Assert.ThrowsAsync<BackendOverloadedException>(() => Get("tarantool-memtx"));

        var other = Get("postgres"); // another server: admitted
        _postgres.Release();
        await other;

        _memtx.Release();
        await Task.WhenAll(held);
        var again = new[] { Get("tarantool-vinyl"), Get("tarantool-memtx") }; // every permit is back
        _vinyl.Release();
        _memtx.Release();
        await Task.WhenAll(again);
    }

    [Fact]
    public async Task AnArchitectureOnTwoServersNeedsAPermitFromEachAndFailedCallsReturnTheirs()
    {
        var held = new[] { Get("postgres"), Get("postgres") };
        var refused = await Assert.ThrowsAsync<BackendOverloadedException>(() => Get("postgres-redis-persistent"));
        Assert.Equal("postgres", refused.Backend);
        _postgres.Release();
        await Task.WhenAll(held);

        // A refused call took no permit of redis-persistent either: the limit is still whole.
        var both = new[] { Get("postgres-redis-persistent"), Get("postgres-redis-persistent") };
        await Assert.ThrowsAsync<BackendOverloadedException>(() => Get("postgres-redis-persistent"));
        _persistent.Release();
        await Task.WhenAll(both);

        // Failing calls give their permits back.
        for (var i = 0; i < Limit * 3; i++)
        {
            await Assert.ThrowsAsync<StorageUnavailableException>(() => _registry.Items("postgres").ReplaceLocationsAsync(1, [1], CancellationToken.None));
        }
        var last = new[] { Get("postgres"), Get("postgres") };
        _postgres.Release();
        await Task.WhenAll(last);
    }
}
