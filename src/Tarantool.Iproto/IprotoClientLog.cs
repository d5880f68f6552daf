using Microsoft.Extensions.Logging;
using Wire.Connections;

namespace Tarantool.Iproto;

/// <summary>What the <see cref="IprotoClient"/>'s connection keeper reports, as log messages.</summary>
internal sealed partial class IprotoClientLog(ILogger logger, string host, int port) : IConnectionObserver<IprotoConnection>
{
    public void Connected(IprotoConnection connection) => LogConnected(host, port, connection.Greeting.Version);

    public void ConnectFailed(Exception error) => LogConnectFailed(host, port, error.Message);

    public void ConnectionLost() => LogConnectionLost(host, port);

    [LoggerMessage(LogLevel.Information, "Connected to Tarantool at {Host}:{Port} ({Version})")]
    private partial void LogConnected(string host, int port, string version);

    [LoggerMessage(LogLevel.Warning, "Cannot connect to Tarantool at {Host}:{Port}: {Reason}; retrying")]
    private partial void LogConnectFailed(string host, int port, string reason);

    [LoggerMessage(LogLevel.Warning, "Lost the connection to Tarantool at {Host}:{Port}; reconnecting")]
    private partial void LogConnectionLost(string host, int port);
}
