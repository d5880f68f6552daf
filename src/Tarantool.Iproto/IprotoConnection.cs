using System.Buffers;
using System.Collections.Concurrent;
using System.Net.Sockets;
using MessagePack;
using Wire.Connections;

namespace Tarantool.Iproto;

/// <summary>
/// One authenticated IPROTO socket carrying many requests at once: callers serialize their
/// frame into the shared <see cref="PipelinedWriter"/> and wait on a completion keyed by the sync id,
/// and a reader loop completes answers as they arrive, in whatever order. A connection that has
/// received nothing for the ping interval sends IPROTO_PING; no answer within the ping timeout breaks it. Once broken, the
/// connection stays broken: every waiting and later request fails with
/// <see cref="IprotoUnavailableException"/> and <see cref="Closed"/> completes, so the owner can open a new one.
/// </summary>
public sealed class IprotoConnection : IKeptConnection
{
    // TCP keepalive backs the ping up below the protocol, e.g. while a connect or an auth is pending.
    private static readonly TcpKeepAlive KeepAlive = new(IdleSeconds: 5, IntervalSeconds: 2, RetryCount: 3);

    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly PipelinedWriter _writer;
    private readonly ConcurrentDictionary<ulong, PendingAnswer> _pending = new();
    private readonly Timer _sweep;
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly IprotoFrame.Handler _complete;
    private readonly long _pingIntervalMs;
    private readonly long _pingTimeoutMs;
    private long _lastSync;
    private long _lastReceived = Environment.TickCount64;
    private ulong _pingSync; // 0: no ping in flight
    private long _pingDeadline;
    private Task _readLoop = Task.CompletedTask;

    private IprotoConnection(Socket socket, NetworkStream stream, IprotoGreeting greeting, IprotoConnectionOptions options)
    {
        _socket = socket;
        _stream = stream;
        _writer = new PipelinedWriter(stream, Fail);
        Greeting = greeting;
        _complete = Complete;
        _pingIntervalMs = (long)options.PingInterval.TotalMilliseconds;
        _pingTimeoutMs = (long)options.PingTimeout.TotalMilliseconds;
        _sweep = new Timer(static state => ((IprotoConnection)state!).Sweep(), this, SweepInterval, SweepInterval);
    }

    /// <summary>
    /// How often waiting requests are checked against their deadlines and the connection for
    /// idleness: one timer per connection rather than one per request, so a timeout fires up to this much late.
    /// </summary>
    public static readonly TimeSpan SweepInterval = TimeSpan.FromMilliseconds(50);

    public IprotoGreeting Greeting { get; }

    /// <summary>Completes when the connection broke or was disposed.</summary>
    public Task Closed => _closed.Task;

    public bool IsOpen => _writer.ClosedBecause is null;

    /// <summary>Connects, reads the greeting and authenticates (skipped for the guest user); <paramref name="cancellationToken"/> bounds it all.</summary>
    public static async Task<IprotoConnection> OpenAsync(IprotoConnectionOptions options, CancellationToken cancellationToken)
    {
        var socket = KeepAlive.CreateSocket();
        IprotoConnection? connection = null;
        try
        {
            await socket.ConnectAsync(options.Host, options.Port, cancellationToken).ConfigureAwait(false);
            var stream = new NetworkStream(socket, ownsSocket: true);
            var greeting = new byte[IprotoGreeting.Size];
            await stream.ReadExactlyAsync(greeting, cancellationToken).ConfigureAwait(false);
            connection = new IprotoConnection(socket, stream, IprotoGreeting.Parse(greeting), options);
            connection.Start();
            if (!string.IsNullOrEmpty(options.User) && options.User != "guest")
            {
                var scramble = ChapSha1.Scramble(connection.Greeting.Salt, options.Password);
                using var answer = await connection.SendAsync(IprotoCode.Auth, (options.User, scramble), WriteAuth,
                    Timeout.InfiniteTimeSpan, cancellationToken).ConfigureAwait(false);
            }
            return connection;
        }
        catch
        {
            if (connection is not null) await connection.DisposeAsync().ConfigureAwait(false);
            else socket.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Queues one request and waits for its answer. <paramref name="writeBody"/> writes the body
    /// map (null: an empty one). An IPROTO error becomes <see cref="IprotoServerException"/>; no answer
    /// within <paramref name="timeout"/>, or a broken connection, <see cref="IprotoUnavailableException"/>;
    /// a cancelled token, <see cref="OperationCanceledException"/>.
    /// </summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        TimeSpan timeout, CancellationToken cancellationToken)
    {
        var sync = NextSync();
        var answer = new PendingAnswer(this, sync, timeout);
        if (!TryQueue(code, sync, state, writeBody, answer))
        {
            return Task.FromException<IprotoResponse>(
                new IprotoUnavailableException(IprotoUnavailableReason.NotConnected, "not connected", _writer.ClosedBecause));
        }
        if (cancellationToken.CanBeCanceled) answer.CancelWith(cancellationToken);
        return answer.Task;
    }

    /// <summary>Closes the socket and fails waiting requests; the loops end on their own.</summary>
    public void Dispose()
    {
        Fail(new ObjectDisposedException(nameof(IprotoConnection)));
        _stream.Dispose();
    }

    public async ValueTask DisposeAsync()
    {
        Dispose();
        await Task.WhenAll(_readLoop, _writer.Completion).ConfigureAwait(false);
    }

    private void Start()
    {
        _readLoop = Task.Run(ReadLoopAsync);
        _writer.Start();
    }

    private ulong NextSync() => (ulong)Interlocked.Increment(ref _lastSync);

    /// <summary>Appends the frame to the queue (and <paramref name="answer"/>, if any, to the waiting); false once failed.</summary>
    private bool TryQueue<TState>(IprotoCode code, ulong sync, TState state, IprotoBodyWriter<TState>? writeBody, PendingAnswer? answer)
    {
        var frame = new Request<TState>(code, sync, state, writeBody, answer, _pending);
        return _writer.TryEnqueue(ref frame);
    }

    private async Task ReadLoopAsync()
    {
        var buffer = new byte[64 * 1024];
        int start = 0, end = 0;
        try
        {
            while (true)
            {
                int needed;
                while ((needed = IprotoFrame.TryDispatch(buffer.AsMemory(start, end - start), _complete, out var consumed)) == 0)
                {
                    start += consumed;
                }
                if (start == end)
                {
                    start = end = 0;
                }
                else if (buffer.Length - start < needed)
                {
                    // Move the partial frame to the front, growing the buffer if the frame is larger.
                    var target = needed > buffer.Length ? new byte[Math.Max(needed, buffer.Length * 2)] : buffer;
                    Buffer.BlockCopy(buffer, start, target, 0, end - start);
                    (buffer, end, start) = (target, end - start, 0);
                }
                var read = await _stream.ReadAsync(buffer.AsMemory(end)).ConfigureAwait(false);
                if (read == 0) throw new IOException("Tarantool closed the connection.");
                Volatile.Write(ref _lastReceived, Environment.TickCount64);
                end += read;
            }
        }
        catch (Exception ex)
        {
            Fail(ex);
        }
    }

    private void Complete(ulong sync, int code, ReadOnlyMemory<byte> body)
    {
        if (Interlocked.CompareExchange(ref _pingSync, 0, sync) == sync) return; // our idle ping: alive
        if (!_pending.TryRemove(sync, out var answer)) return; // timed out or cancelled earlier
        if (code == 0)
        {
            var copy = ArrayPool<byte>.Shared.Rent(body.Length);
            body.Span.CopyTo(copy);
            if (!answer.TryAnswer(new IprotoResponse(copy, body.Length))) ArrayPool<byte>.Shared.Return(copy);
        }
        else
        {
            answer.TryFail(new IprotoServerException(code & 0x7fff, IprotoFrame.ReadErrorMessage(body)));
        }
    }

    /// <summary>The timer's callback: fails overdue requests and pings (or gives up on) an idle peer.</summary>
    private void Sweep()
    {
        var now = Environment.TickCount64;
        CheckAlive(now);
        if (_pending.IsEmpty) return;
        foreach (var (sync, answer) in _pending)
        {
            if (answer.Deadline <= now && _pending.TryRemove(sync, out _))
            {
                answer.TryFail(new IprotoUnavailableException(IprotoUnavailableReason.Timeout,
                    $"no answer within {answer.Timeout.TotalMilliseconds:0} ms", new TimeoutException()));
            }
        }
    }

    private void CheckAlive(long now)
    {
        if (Volatile.Read(ref _pingSync) != 0)
        {
            if (now < Volatile.Read(ref _pingDeadline)) return;
            Fail(new IprotoUnavailableException(IprotoUnavailableReason.ConnectionLost,
                $"no answer to a ping within {_pingTimeoutMs} ms"));
            return;
        }
        if (now - Volatile.Read(ref _lastReceived) < _pingIntervalMs) return;
        var sync = NextSync();
        Volatile.Write(ref _pingDeadline, now + _pingTimeoutMs);
        Volatile.Write(ref _pingSync, sync);
        TryQueue(IprotoCode.Ping, sync, 0, null, answer: null);
    }

    private void Fail(Exception reason)
    {
        // After this no request is queued (nor waits), so the drain below misses none.
        if (!_writer.TryClose(reason)) return;
        foreach (var sync in _pending.Keys)
        {
            if (_pending.TryRemove(sync, out var answer))
            {
                answer.TryFail(new IprotoUnavailableException(IprotoUnavailableReason.ConnectionLost, "connection lost", reason));
            }
        }
        _sweep.Dispose();
        _socket.Dispose(); // unblocks the reader
        _closed.TrySetResult();
    }

    private static void WriteAuth(ref MessagePackWriter writer, (string User, byte[] Scramble) auth)
    {
        writer.WriteMapHeader(2);
        writer.Write(IprotoKey.UserName);
        writer.Write(auth.User);
        writer.Write(IprotoKey.Tuple);
        writer.WriteArrayHeader(2);
        writer.Write("chap-sha1");
        writer.Write(auth.Scramble);
    }

    /// <summary>One request frame as the writer queues it; the answer waits under its sync id once the frame is queued.</summary>
    private readonly struct Request<TState>(IprotoCode code, ulong sync, TState state, IprotoBodyWriter<TState>? writeBody,
        PendingAnswer? answer, ConcurrentDictionary<ulong, PendingAnswer> pending) : IOutgoingFrame
    {
        public void WriteTo(PooledBufferWriter output)
        {
            IprotoFrame.Write(output, code, sync, state, writeBody);
            if (answer is not null) pending[sync] = answer;
        }
    }

    /// <summary>
    /// A waiting request: its completion, when it stops waiting (Environment.TickCount64), and the
    /// registration on the caller's token (no wrapper task per request).
    /// </summary>
    private sealed class PendingAnswer(IprotoConnection owner, ulong sync, TimeSpan timeout)
        : TaskCompletionSource<IprotoResponse>(TaskCreationOptions.RunContinuationsAsynchronously)
    {
        private CancellationTokenRegistration _cancellation;

        public TimeSpan Timeout { get; } = timeout;

        public long Deadline { get; } = timeout == System.Threading.Timeout.InfiniteTimeSpan
            ? long.MaxValue
            : Environment.TickCount64 + (long)timeout.TotalMilliseconds;

        public void CancelWith(CancellationToken token) =>
            _cancellation = token.UnsafeRegister(static (state, token) => ((PendingAnswer)state!).Cancel(token), this);

        public bool TryAnswer(IprotoResponse response)
        {
            _cancellation.Unregister();
            return TrySetResult(response);
        }

        public void TryFail(Exception error)
        {
            _cancellation.Unregister();
            TrySetException(error);
        }

        private void Cancel(CancellationToken token)
        {
            owner._pending.TryRemove(sync, out _);
            TrySetCanceled(token);
        }
    }
}
