using System.Net;
using System.Net.Sockets;

namespace Tank.SelfTest;

/// <summary>
/// The cheapest HTTP/1.1 responder we can write: answers every request on a kept-alive
/// connection with a fixed 200 and a 2-byte body. Used to measure the runner's own overhead and
/// by the end-to-end test; it reads until the blank line and then the Content-Length body.
/// </summary>
public sealed class TrivialHttpServer : IAsyncDisposable
{
    private static readonly byte[] Response = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"u8.ToArray();
    private readonly TcpListener _listener;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _accept;
    private long _requests;

    public TrivialHttpServer(int port = 0)
    {
        _listener = new TcpListener(IPAddress.Loopback, port);
        _listener.Start(1024);
        _accept = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;
    public long Requests => Interlocked.Read(ref _requests);

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket socket;
            try { socket = await _listener.AcceptSocketAsync(_stop.Token); }
            catch (Exception) when (_stop.IsCancellationRequested) { return; } // a stopped listener throws InvalidOperationException too
            socket.NoDelay = true;
            _ = ServeAsync(socket);
        }
    }

    private async Task ServeAsync(Socket socket)
    {
        var buffer = new byte[64 * 1024];
        var parser = new RequestFramer();
        try
        {
            while (true)
            {
                var read = await socket.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                if (read == 0) break;
                var complete = parser.Feed(buffer.AsSpan(0, read));
                for (var i = 0; i < complete; i++)
                {
                    Interlocked.Increment(ref _requests);
                    await socket.SendAsync(Response, SocketFlags.None, _stop.Token);
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException) { }
        finally { socket.Dispose(); }
    }

    public async ValueTask DisposeAsync()
    {
        _stop.Cancel();
        _listener.Stop();
        await _accept;
        _stop.Dispose();
    }
}
