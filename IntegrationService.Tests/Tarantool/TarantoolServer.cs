using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Tarantool;

/// <summary>The tests' own Tarantool (<see cref="TestServers"/>: script/services --test). A missing server fails tests.</summary>
internal static class TarantoolServer
{
    public static TarantoolOptions CreateOptions(int requestTimeoutMs = 2000) => new()
    {
        Host = "127.0.0.1",
        Port = TestServers.TarantoolPort,
        RequestTimeoutMs = requestTimeoutMs,
        ReconnectDelayMs = 200,
    };

    /// <summary>A connected client; throws when the server cannot be reached.</summary>
    public static async Task<TarantoolConnection> ConnectAsync(int requestTimeoutMs = 2000)
    {
        var options = CreateOptions(requestTimeoutMs);
        var connection = new TarantoolConnection(Options.Create(options), NullLogger<IprotoClient>.Instance);
        if (!await connection.TryConnectAsync(CancellationToken.None))
        {
            throw new InvalidOperationException($"No Tarantool at {options.Host}:{options.Port}: run script/services --test up tarantool.");
        }
        return connection;
    }
}
