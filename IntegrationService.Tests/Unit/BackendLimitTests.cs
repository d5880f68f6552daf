using IntegrationService.Items;
using IntegrationService.Storage;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// The concurrency limit per backend server, on stores that answer only when the test says so:
/// calls beyond the limit are refused at once, architectures on the same server share its limit,
/// other servers are not affected, an architecture on two servers needs a permit from both, and
/// every permit comes back whether the call succeeds or fails.
/// </summary>
public sealed class BackendLimitTests
{
    private const int Limit = 2;

    /// <summary>An item store whose calls wait until <see cref="Release"/> (or fail, if told to).</summary>
    private sealed class HeldItems : IItemStore
    {
        private TaskCompletionSource _gate = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public async Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken)
        {
            await _gate.Task;
            return [];
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

    public BackendLimitTests()
    {
        var options = Options.Create(new StorageOptions { MaxConcurrentRequestsPerBackend = Limit });
        _registry = new StorageRegistry(
            [
                new StorageArchitecture("tarantool-memtx", "", "", null, _memtx, ["tarantool"], []),
                new StorageArchitecture("tarantool-vinyl", "", "", null, _vinyl, ["tarantool"], []),
                new StorageArchitecture("postgres", "", "", null, _postgres, ["postgres"], []),
                new StorageArchitecture("postgres-redis-persistent", "", "", null, _persistent, ["redis-persistent", "postgres"], []),
            ],
            options, new BackendLimiter(options));
    }

    private Task<IReadOnlyList<Location>> Get(string storage) => _registry.Items(storage).GetLocationsAsync(1, CancellationToken.None);

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
