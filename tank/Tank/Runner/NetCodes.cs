using System.Net.Sockets;

namespace Tank.Runner;

/// <summary>Linux errno values phantom writes in phout's net_code field.</summary>
public static class NetCodes
{
    public const int Ok = 0;
    public const int BrokenPipe = 32;
    public const int ProtocolError = 71;   // EPROTO: the answer was not HTTP we could parse
    public const int ConnectionReset = 104;
    public const int TimedOut = 110;
    public const int ConnectionRefused = 111;

    public static int From(SocketException e) => e.SocketErrorCode switch
    {
        SocketError.ConnectionRefused => ConnectionRefused,
        SocketError.ConnectionReset => ConnectionReset,
        SocketError.TimedOut => TimedOut,
        SocketError.Shutdown => BrokenPipe,
        SocketError.ConnectionAborted => 103,
        SocketError.NetworkUnreachable => 101,
        SocketError.HostUnreachable => 113,
        SocketError.AddressNotAvailable => 99,
        SocketError.NoBufferSpaceAvailable => 105,
        _ => e.NativeErrorCode > 0 && e.NativeErrorCode < 200 ? e.NativeErrorCode : ConnectionReset,
    };
}
