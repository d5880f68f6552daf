using System.Diagnostics;
using IntegrationService.Storage;
using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using IntegrationService.Tests.Fixtures;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Tarantool;

/// <summary>Stops the real Tarantool: the client must fail fast while it is down and recover by itself.</summary>
[Collection("Outages")]
public sealed class TarantoolOutageTests
{
    // A request while the server is down fails well before its own timeout would end it: a bound with
    // room for a loaded CI machine, far below the timeout, so a request that waits it out still fails the test.
    private static readonly TimeSpan FailFast = TimeSpan.FromSeconds(3);
    private const int RequestTimeoutMs = 15_000;

    [Fact]
    public async Task ClientStartsWithoutTheServerFailsFastWhileItIsDownAndRecoversByItself()
    {
        var connection = new TarantoolConnection(Options.Create(TarantoolServer.CreateOptions(RequestTimeoutMs)), NullLogger<IprotoClient>.Instance);
        var service = new TarantoolConnectionService(connection);
        try
        {
            await RepositoryRoot.ServicesAsync("down", "tarantool");

            // Start-up neither throws nor waits long when Tarantool is down.
            var watch = Stopwatch.StartNew();
            await service.StartAsync(CancellationToken.None);
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"start took {watch.Elapsed}");
            await AssertUnavailableQuicklyAsync(connection);

            await RepositoryRoot.ServicesAsync("up", "tarantool");
            await WaitUntilAnsweringAsync(connection);

            // Lost while connected: the next requests fail fast, then the loop reconnects.
            await RepositoryRoot.ServicesAsync("down", "tarantool");
            await AssertUnavailableQuicklyAsync(connection);
            await RepositoryRoot.ServicesAsync("up", "tarantool");
            await WaitUntilAnsweringAsync(connection);
        }
        finally
        {
            await RepositoryRoot.ServicesAsync("up", "tarantool");
            await service.StopAsync(CancellationToken.None);
            service.Dispose();
        }
    }

    private static async Task AssertUnavailableQuicklyAsync(TarantoolConnection connection)
    {
        var watch = Stopwatch.StartNew();
        var error = await Assert.ThrowsAsync<StorageUnavailableException>(() => PingAsync(connection));
        Assert.Equal("tarantool", error.Backend);
        Assert.True(watch.Elapsed < FailFast, $"failing took {watch.Elapsed}");
    }

    private static async Task WaitUntilAnsweringAsync(TarantoolConnection connection)
    {
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                await PingAsync(connection);
                return;
            }
            catch (StorageUnavailableException) when (deadline.Elapsed < TimeSpan.FromSeconds(30))
            {
                await Task.Delay(100);
            }
        }
    }

    private static async Task PingAsync(TarantoolConnection connection)
    {
        using var response = await connection.SendAsync(IprotoCode.Ping, 0, null, CancellationToken.None);
    }
}
