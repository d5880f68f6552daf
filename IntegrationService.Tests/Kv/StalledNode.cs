using System.Net;
using System.Net.Sockets;

namespace IntegrationService.Tests.Kv;

/// <summary>
/// A cluster node that accepts connections and reads what it is sent but never answers: an owner
/// stalled under overload. Counts the connections it was opened.
/// </summary>
public sealed class StalledNode : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly List<TcpClient> _accepted = [];
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _accepting;

    public StalledNode()
    {
        _listener.Start();
        Url = $"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}";
        _accepting = AcceptAsync();
    }

    public string Url { get; }

    public int Connections
    {
        get
        {
            lock (_accepted) return _accepted.Count;
        }
    }

    private async Task AcceptAsync()
    {
        try
        {
            while (true)
            {
                var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                lock (_accepted) _accepted.Add(client);
                _ = DrainAsync(client.GetStream());
            }
        }
        catch (Exception) when (_stop.IsCancellationRequested)
        {
            // Stopped: after the listener stops, accepting throws InvalidOperationException or SocketException,
            // not only OperationCanceledException.
        }
    }

    private async Task DrainAsync(NetworkStream stream)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            while (await stream.ReadAsync(buffer, _stop.Token) > 0)
            {
                // read and ignore: never an answer
            }
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or ObjectDisposedException)
        {
            // stopped, or the caller closed the connection
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        lock (_accepted)
        {
            foreach (var client in _accepted) client.Dispose();
        }
        _stop.Dispose();
    }
}
