using System.Net.Sockets;

namespace Wire.Connections;

/// <summary>
/// TCP keepalive settings: a peer that vanished without a FIN (a host that died, a cable pulled) is
/// declared dead after about <see cref="IdleSeconds"/> + <see cref="RetryCount"/> × <see cref="IntervalSeconds"/>,
/// which ends the connection's pending read even when the protocol itself is idle.
/// </summary>
public readonly record struct TcpKeepAlive(int IdleSeconds, int IntervalSeconds, int RetryCount)
{
    /// <summary>A TCP socket with Nagle off (requests are written whole, and at once) and these keepalive settings.</summary>
    public Socket CreateSocket()
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            ApplyTo(socket);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Turns keepalive on, with these settings, on a socket made elsewhere (an accepted one).</summary>
    public void ApplyTo(Socket socket)
    {
        socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive, true);
        socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime, IdleSeconds);
        socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval, IntervalSeconds);
        socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveRetryCount, RetryCount);
    }
}
