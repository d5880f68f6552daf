using IntegrationService.Storage.Tarantool;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Tarantool;

/// <summary>The local Tarantool of script/services (TARANTOOL_PORT overrides 13301). A missing server fails tests.</summary>
internal static class TarantoolServer
{
    public static TarantoolOptions CreateOptions(int requestTimeoutMs = 2000) => new()
    {
        Host = Environment.GetEnvironmentVariable("TARANTOOL_HOST") ?? "127.0.0.1",
        Port = int.TryParse(Environment.GetEnvironmentVariable("TARANTOOL_PORT"), out var port) ? port : 13301,
        RequestTimeoutMs = requestTimeoutMs,
        ReconnectDelayMs = 200,
    };

    /// <summary>A connected client; throws when the server cannot be reached.</summary>
    public static async Task<TarantoolConnection> ConnectAsync(int requestTimeoutMs = 2000)
    {
        var options = CreateOptions(requestTimeoutMs);
        var connection = new TarantoolConnection(Options.Create(options), NullLogger<TarantoolConnection>.Instance);
        if (!await connection.TryConnectAsync(CancellationToken.None))
        {
            throw new InvalidOperationException($"No Tarantool at {options.Host}:{options.Port}: run script/services up tarantool.");
        }
        return connection;
    }
}
