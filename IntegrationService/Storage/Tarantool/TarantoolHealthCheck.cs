using Tarantool.Iproto;

namespace IntegrationService.Storage.Tarantool;

/// <summary>IPROTO PING on the shared connection: answers only while the client is connected.</summary>
internal sealed class TarantoolHealthCheck(TarantoolConnection connection) : IBackendHealthCheck
{
    public const string BackendName = "tarantool";

    public async Task PingAsync(CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Ping, 0, null, cancellationToken);
    }
}
