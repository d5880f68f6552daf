using IntegrationService;
using Microsoft.Extensions.Logging.Abstractions;

namespace Tarantool.Iproto.Tests;

/// <summary>
/// The tests' own Tarantool, which the project's scripts start on TEST_TARANTOOL_PORT (default: its tests' port in infra/config/ports.txt;
/// <c>script/services --test up tarantool</c>). A missing server fails the tests that use it.
/// </summary>
internal static class TarantoolTestServer
{
    private static readonly PortTable Ports = PortTable.OfThisCheckout() ?? throw new InvalidOperationException("infra/config/ports.txt not found above the test binaries");

    /// <summary>The port of the user's own server (infra/config/ports.txt): never the tests'.</summary>
    public static int UserPort => Ports.User("TARANTOOL");

    public static int Port
    {
        get
        {
            var port = int.TryParse(Environment.GetEnvironmentVariable("TEST_TARANTOOL_PORT"), out var parsed) ? parsed : Ports.Test("TARANTOOL");
            if (port == UserPort)
            {
                throw new InvalidOperationException(
                    $"TEST_TARANTOOL_PORT={port} is the port of the user's Tarantool; the tests use their own instance.");
            }
            return port;
        }
    }

    /// <summary>The service's defaults (user integration, as infra/config/tarantool/init.lua creates it) on the test port.</summary>
    public static IprotoClientOptions Options(int requestTimeoutMs = 2000) => new(
        new IprotoConnectionOptions("127.0.0.1", Port, "integration", "integration",
            PingInterval: TimeSpan.FromSeconds(5), PingTimeout: TimeSpan.FromMilliseconds(requestTimeoutMs)),
        RequestTimeout: TimeSpan.FromMilliseconds(requestTimeoutMs),
        ConnectTimeout: TimeSpan.FromSeconds(2),
        ReconnectDelay: TimeSpan.FromMilliseconds(200),
        MaxReconnectDelay: TimeSpan.FromSeconds(5));

    /// <summary>A connected client; throws when the server cannot be reached.</summary>
    public static async Task<IprotoClient> ConnectAsync(int requestTimeoutMs = 2000)
    {
        var client = new IprotoClient(Options(requestTimeoutMs), NullLogger<IprotoClient>.Instance);
        if (!await client.TryConnectAsync(CancellationToken.None))
        {
            throw new InvalidOperationException($"No Tarantool at 127.0.0.1:{Port}: run script/services --test up tarantool.");
        }
        return client;
    }
}
