using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Beanstalkd.Client.Tests;

/// <summary>
/// A fault injector in beanstalkd's place: it accepts connections and answers each command line
/// it receives with what <c>answer</c> makes of it — nothing at all for null (a server that
/// hangs) — and, given a reply gate, only once the gate has opened. It counts connections, keeps
/// what it received, and notices when the client closes a connection.
/// </summary>
internal sealed class FakeBeanstalkd : IAsyncDisposable
{
    private readonly Func<string, string?> _answer;
    private readonly Task _replyGate;
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly StringBuilder _received = new();
    private readonly Task _accepting;
    private int _connections;

    public FakeBeanstalkd(Func<string, string?> answer, Task? replyGate = null)
    {
        _answer = answer;
        _replyGate = replyGate ?? Task.CompletedTask;
        _listener.Start();
        _accepting = AcceptAsync();
    }

    /// <summary>A server that accepts and never answers.</summary>
    public static FakeBeanstalkd Silent() => new(_ => null);

    /// <summary>A server that answers every command with <paramref name="reply"/> (sent as UTF-8).</summary>
    public static FakeBeanstalkd Answering(string reply) => new(_ => reply);

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>Connections accepted so far.</summary>
    public int Connections => Volatile.Read(ref _connections);

    /// <summary>Every command line received so far, on every connection, each with its CRLF.</summary>
    public string Received
    {
        get
        {
            lock (_received) return _received.ToString();
        }
    }

    /// <summary>Completes when the client closes a connection.</summary>
    public Task ClientClosedAConnection => _closed.Task;

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        var sessions = new List<Task>();
        try
        {
            while (true)
            {
                var socket = await _listener.AcceptSocketAsync(_stop.Token);
                Interlocked.Increment(ref _connections);
                sessions.Add(ServeAsync(socket));
            }
        }
        catch (Exception) when (_stop.IsCancellationRequested)
        {
            // Stopped.
        }
        await Task.WhenAll(sessions);
    }

    private async Task ServeAsync(Socket socket)
    {
        using (socket)
        {
            var buffer = new byte[64 * 1024];
            var pending = "";
            try
            {
                int read;
                while ((read = await socket.ReceiveAsync(buffer, SocketFlags.None, _stop.Token)) > 0)
                {
                    pending += Encoding.Latin1.GetString(buffer, 0, read);
                    int end;
                    while ((end = pending.IndexOf("\r\n", StringComparison.Ordinal)) >= 0)
                    {
                        var line = pending[..(end + 2)];
                        pending = pending[(end + 2)..];
                        lock (_received) _received.Append(line);
                        if (_answer(line) is not { } reply) continue;
                        await _replyGate.WaitAsync(_stop.Token);
                        await socket.SendAsync(Encoding.UTF8.GetBytes(reply), SocketFlags.None, _stop.Token);
                    }
                }
                _closed.TrySetResult();
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException)
            {
                if (!_stop.IsCancellationRequested) _closed.TrySetResult();
            }
        }
    }
}
