using System.Buffers;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Threading.Channels;

namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>
/// One authenticated IPROTO socket carrying many requests at once: callers serialize their
/// frame into a shared queue buffer and wait on a completion keyed by the sync id; a writer loop
/// sends whatever is queued, and a reader loop completes answers as they arrive. The writer never
/// waits for company — a lone request is written at once, and requests that arrive while a write
/// is in flight go out together in the next one. Once broken, the connection stays broken: every
/// waiting and later request fails with <see cref="StorageUnavailableException"/> and
/// <see cref="Closed"/> completes, so the owner can open a new one.
/// </summary>
public sealed class IprotoConnection : IAsyncDisposable, IDisposable
{
    private const int LengthPrefixSize = 5;

    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly Lock _queueLock = new();
    private readonly Channel<bool> _wake = Channel.CreateBounded<bool>(
        new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite, SingleReader = true });
    private readonly ConcurrentDictionary<ulong, PendingAnswer> _pending = new();
    private readonly Timer _deadlines;
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private PooledBufferWriter _queued = new();
    private PooledBufferWriter _writing = new();
    private Exception? _failure;
    private long _lastSync;
    private Task _readLoop = Task.CompletedTask;
    private Task _writeLoop = Task.CompletedTask;

    private IprotoConnection(Socket socket, NetworkStream stream, IprotoGreeting greeting)
    {
        _socket = socket;
        _stream = stream;
        Greeting = greeting;
        _deadlines = new Timer(static state => ((IprotoConnection)state!).ExpireOverdue(), this, DeadlineSweepInterval, DeadlineSweepInterval);
    }

    /// <summary>
    /// How often waiting requests are checked against their deadlines: one timer per connection
    /// rather than one per request, so a request's timeout fires up to this much late.
    /// </summary>
    public static readonly TimeSpan DeadlineSweepInterval = TimeSpan.FromMilliseconds(50);

    public IprotoGreeting Greeting { get; }

    /// <summary>Completes when the connection broke or was disposed.</summary>
    public Task Closed => _closed.Task;

    public bool IsOpen => Volatile.Read(ref _failure) is null;

    /// <summary>Connects, reads the greeting and authenticates (skipped for the guest user); <paramref name="cancellationToken"/> bounds it all.</summary>
    public static async Task<IprotoConnection> OpenAsync(string host, int port, string user, string password, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        IprotoConnection? connection = null;
        try
        {
            await socket.ConnectAsync(host, port, cancellationToken).ConfigureAwait(false);
            var stream = new NetworkStream(socket, ownsSocket: true);
            var greeting = new byte[IprotoGreeting.Size];
            await stream.ReadExactlyAsync(greeting, cancellationToken).ConfigureAwait(false);
            connection = new IprotoConnection(socket, stream, IprotoGreeting.Parse(greeting));
            connection.Start();
            if (!string.IsNullOrEmpty(user) && user != "guest")
            {
                var scramble = ChapSha1.Scramble(connection.Greeting.Salt, password);
                using var answer = await connection.SendAsync(IprotoCode.Auth, (user, scramble), WriteAuth,
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
    /// map (null: an empty one). An IPROTO error becomes <see cref="TarantoolException"/>; no answer
    /// within <paramref name="timeout"/>, or a broken connection, <see cref="StorageUnavailableException"/>.
    /// </summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, MsgPackWrite<TState>? writeBody,
        TimeSpan timeout, CancellationToken cancellationToken)
    {
        var sync = (ulong)Interlocked.Increment(ref _lastSync);
        var completion = new PendingAnswer(timeout);
        bool wasEmpty;
        lock (_queueLock)
        {
            // Checked under the same lock Fail takes, so no request is queued after the drain.
            if (_failure is { } failure) return Task.FromException<IprotoResponse>(Unavailable("not connected", failure));
            var start = _queued.WrittenCount;
            try
            {
                WriteFrame(code, sync, state, writeBody);
            }
            catch
            {
                _queued.Truncate(start);
                throw;
            }
            BinaryPrimitives.WriteUInt32BigEndian(_queued.WrittenSpan.Slice(start + 1, 4),
                (uint)(_queued.WrittenCount - start - LengthPrefixSize));
            _pending[sync] = completion;
            wasEmpty = start == 0;
        }
        // Only the empty → non-empty transition needs to wake the writer: it drains until empty.
        if (wasEmpty) _wake.Writer.TryWrite(true);
        return cancellationToken.CanBeCanceled ? WaitAsync(sync, completion.Task, cancellationToken) : completion.Task;
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
        await Task.WhenAll(_readLoop, _writeLoop).ConfigureAwait(false);
    }

    private void Start()
    {
        _readLoop = Task.Run(ReadLoopAsync);
        _writeLoop = Task.Run(WriteLoopAsync);
    }

    private void WriteFrame<TState>(IprotoCode code, ulong sync, TState state, MsgPackWrite<TState>? writeBody)
    {
        var writer = new MsgPackWriter(_queued);
        writer.WriteUInt32Fixed(0);
        writer.WriteMapHeader(2);
        writer.WriteUInt64(IprotoKey.RequestType);
        writer.WriteUInt64((ulong)code);
        writer.WriteUInt64(IprotoKey.Sync);
        writer.WriteUInt64(sync);
        if (writeBody is null) writer.WriteMapHeader(0);
        else writeBody(ref writer, state);
    }

    private async Task<IprotoResponse> WaitAsync(ulong sync, Task<IprotoResponse> answer, CancellationToken cancellationToken)
    {
        try
        {
            return await answer.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            _pending.TryRemove(sync, out _);
            throw;
        }
    }

    private async Task WriteLoopAsync()
    {
        try
        {
            while (await _wake.Reader.WaitToReadAsync().ConfigureAwait(false))
            {
                _wake.Reader.TryRead(out _);
                while (true)
                {
                    lock (_queueLock)
                    {
                        if (_queued.WrittenCount == 0) break;
                        (_queued, _writing) = (_writing, _queued);
                    }
                    await _stream.WriteAsync(_writing.WrittenMemory).ConfigureAwait(false);
                    _writing.Clear();
                }
            }
        }
        catch (Exception ex)
        {
            Fail(ex);
        }
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
                while ((needed = IprotoFrame.TryDispatch(buffer.AsSpan(start, end - start), Complete, out var consumed)) == 0)
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
                end += read;
            }
        }
        catch (Exception ex)
        {
            Fail(ex);
        }
    }

    private void Complete(ulong sync, int code, ReadOnlySpan<byte> body)
    {
        if (!_pending.TryRemove(sync, out var completion)) return; // timed out or cancelled earlier
        if (code == 0)
        {
            var copy = ArrayPool<byte>.Shared.Rent(body.Length);
            body.CopyTo(copy);
            completion.TrySetResult(new IprotoResponse(copy, body.Length));
        }
        else
        {
            completion.TrySetException(new TarantoolException(code & 0x7fff, IprotoFrame.ReadErrorMessage(body)));
        }
    }

    /// <summary>Fails every request whose deadline has passed (the timer's callback).</summary>
    private void ExpireOverdue()
    {
        if (_pending.IsEmpty) return;
        var now = Environment.TickCount64;
        foreach (var (sync, answer) in _pending)
        {
            if (answer.Deadline <= now && _pending.TryRemove(sync, out _))
            {
                answer.TrySetException(Unavailable($"no answer within {answer.Timeout.TotalMilliseconds:0} ms",
                    new TimeoutException()));
            }
        }
    }

    private void Fail(Exception reason)
    {
        lock (_queueLock)
        {
            if (_failure is not null) return;
            Volatile.Write(ref _failure, reason);
        }
        foreach (var sync in _pending.Keys)
        {
            if (_pending.TryRemove(sync, out var completion))
            {
                completion.TrySetException(Unavailable("connection lost", reason));
            }
        }
        _wake.Writer.TryComplete();
        _deadlines.Dispose();
        _socket.Dispose(); // unblocks the reader
        _closed.TrySetResult();
    }

    private static StorageUnavailableException Unavailable(string message, Exception inner) =>
        new("tarantool", message, inner);

    private static void WriteAuth(ref MsgPackWriter writer, (string User, byte[] Scramble) auth)
    {
        writer.WriteMapHeader(2);
        writer.WriteUInt64(IprotoKey.UserName);
        writer.WriteString(auth.User);
        writer.WriteUInt64(IprotoKey.Tuple);
        writer.WriteArrayHeader(2);
        writer.WriteString("chap-sha1");
        writer.WriteBinary(auth.Scramble);
    }

    /// <summary>A waiting request: its completion and when it stops waiting (Environment.TickCount64).</summary>
    private sealed class PendingAnswer(TimeSpan timeout)
        : TaskCompletionSource<IprotoResponse>(TaskCreationOptions.RunContinuationsAsynchronously)
    {
        public TimeSpan Timeout { get; } = timeout;

        public long Deadline { get; } = timeout == System.Threading.Timeout.InfiniteTimeSpan
            ? long.MaxValue
            : Environment.TickCount64 + (long)timeout.TotalMilliseconds;
    }
}
