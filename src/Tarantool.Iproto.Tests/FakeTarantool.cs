using System.Net;
using System.Net.Sockets;

namespace Tarantool.Iproto.Tests;

/// <summary>
/// A loopback listener that greets like Tarantool and answers each request with what
/// <c>answer</c> returns for its type: (code, body) to reply, null to stay silent.
/// </summary>
internal sealed class FakeTarantool : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Func<IprotoCode, (int Code, byte[] Body)?> _answer;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _serving;
    private int _pings;

    public FakeTarantool(Func<IprotoCode, (int Code, byte[] Body)?> answer)
    {
        _answer = answer;
        _listener.Start();
        _serving = Task.Run(ServeAsync);
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public int Pings => Volatile.Read(ref _pings);

    /// <summary>An empty success body (PING's answer).</summary>
    public static (int, byte[]) Ok => (0, [0x80]);

    public IprotoConnectionOptions Options(TimeSpan pingInterval, TimeSpan pingTimeout) =>
        new("127.0.0.1", Port, "guest", "", pingInterval, pingTimeout);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        try
        {
            await _serving;
        }
        catch (Exception)
        {
            // Stopped: whatever the stopped listener or the closed connection threw (InvalidOperationException
            // when the accept began after Stop).
        }
        _stop.Dispose();
    }

    private async Task ServeAsync()
    {
        using var client = await _listener.AcceptTcpClientAsync(_stop.Token);
        var stream = client.GetStream();
        await stream.WriteAsync(IprotoEncodingTests.Greeting(new byte[32]), _stop.Token);
        var buffer = new byte[64 * 1024];
        int end = 0;
        while (true)
        {
            var read = await stream.ReadAsync(buffer.AsMemory(end), _stop.Token);
            if (read == 0) return;
            end += read;
            var start = 0;
            var replies = new List<byte[]>();
            while (IprotoFrame.TryDispatch(buffer.AsMemory(start, end - start), (sync, type, _) =>
                   {
                       if ((IprotoCode)type == IprotoCode.Ping) Interlocked.Increment(ref _pings);
                       if (_answer((IprotoCode)type) is { } reply) replies.Add(IprotoEncodingTests.Frame(reply.Code, sync, reply.Body));
                   }, out var consumed) == 0)
            {
                start += consumed;
            }
            Buffer.BlockCopy(buffer, start, buffer, 0, end - start);
            end -= start;
            foreach (var reply in replies) await stream.WriteAsync(reply, _stop.Token);
        }
    }
}
