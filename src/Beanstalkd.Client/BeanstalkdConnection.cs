using System.Buffers;
using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Threading.Channels;

namespace Beanstalkd.Client;

/// <summary>
/// One socket to beanstalkd carrying many calls at once. beanstalkd answers a connection's
/// commands one by one in the order it received them, so commands are written in the order the
/// replies are expected: a caller appends its command to a shared send buffer and its
/// <see cref="BeanstalkdPendingReply"/> to a FIFO under one lock; a writer loop sends whatever is
/// buffered (a lone command at once, commands that arrive during a write together in the next);
/// a reader loop cuts replies out of the received bytes and hands each to the oldest waiting call.
/// <para>
/// Matching by order only works while every reply arrives, so the connection is dropped — and
/// stays broken, failing every waiting and later call with
/// <see cref="BeanstalkdUnavailableException"/> — when a reply does not come by its deadline,
/// when a reply cannot be parsed, or when the socket fails. The owner then opens a new one.
/// </para>
/// </summary>
internal sealed class BeanstalkdConnection : IAsyncDisposable
{
    private const int ReceiveBufferSize = 16 * 1024;
    private const int SendBufferSize = 4 * 1024;

    /// <summary>Buffers grown beyond this by a large job are replaced once it has passed, so one big body does not stay pinned.</summary>
    private const int KeptBufferSize = 1024 * 1024;

    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly string _endpoint;
    private readonly BeanstalkdCommandWriter _commands;
    private readonly long _timeoutMs;
    private readonly Lock _queueLock = new();
    private readonly Channel<bool> _wake = Channel.CreateBounded<bool>(
        new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite, SingleReader = true });
    private readonly ConcurrentQueue<BeanstalkdPendingReply> _pending = new();
    private readonly Timer _deadlines;
    private ArrayBufferWriter<byte> _queued = new(SendBufferSize);
    private ArrayBufferWriter<byte> _writing = new(SendBufferSize);
    private string? _failure;
    private Exception? _failureCause;
    private Task _readLoop = Task.CompletedTask;
    private Task _writeLoop = Task.CompletedTask;

    private BeanstalkdConnection(Socket socket, string endpoint, BeanstalkdCommandWriter commands, TimeSpan timeout)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _endpoint = endpoint;
        _commands = commands;
        _timeoutMs = (long)timeout.TotalMilliseconds;
        var sweep = DeadlineSweepInterval(timeout);
        _deadlines = new Timer(static state => ((BeanstalkdConnection)state!).ExpireOverdue(), this, sweep, sweep);
    }

    /// <summary>False once the connection broke or was disposed; it never opens again.</summary>
    public bool IsOpen => Volatile.Read(ref _failure) is null;

    /// <summary>
    /// How often waiting calls are checked against their deadlines: a tenth of the timeout,
    /// between 5 and 100 ms. One timer per connection rather than one per call, so a call fails
    /// up to this much after its timeout.
    /// </summary>
    public static TimeSpan DeadlineSweepInterval(TimeSpan timeout) =>
        TimeSpan.FromMilliseconds(Math.Clamp(timeout.TotalMilliseconds / 10, 5, 100));

    /// <summary>
    /// Connects with TCP keepalive on and, for a tube other than "default", sends <c>use</c>,
    /// <c>watch</c> and <c>ignore default</c> and waits for their replies before the connection is
    /// handed out, so that no put can land in the wrong tube. <see cref="BeanstalkdClientOptions.ConnectTimeout"/>
    /// bounds it all; <paramref name="cancellationToken"/> abandons it (the client is disposed).
    /// </summary>
    public static async Task<BeanstalkdConnection> OpenAsync(BeanstalkdClientOptions options, string endpoint, BeanstalkdCommandWriter commands,
        CancellationToken cancellationToken)
    {
        var deadline = Environment.TickCount64 + (long)options.ConnectTimeout.TotalMilliseconds;
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        BeanstalkdConnection? connection = null;
        using var connectTimeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        connectTimeout.CancelAfter(options.ConnectTimeout);
        try
        {
            EnableKeepAlive(socket);
            await socket.ConnectAsync(options.Host, options.Port, connectTimeout.Token).ConfigureAwait(false);
            connection = new BeanstalkdConnection(socket, endpoint, commands, options.Timeout);
            connection.Start();
            if (!commands.IsDefaultTube)
            {
                await Task.WhenAll(
                    connection.SendAsync(BeanstalkdCommand.Use, 0, default, deadline, cancellationToken),
                    connection.SendAsync(BeanstalkdCommand.Watch, 0, default, deadline, cancellationToken),
                    connection.SendAsync(BeanstalkdCommand.IgnoreDefault, 0, default, deadline, cancellationToken))
                    .ConfigureAwait(false);
            }
            return connection;
        }
        catch (Exception ex)
        {
            if (connection is not null) await connection.DisposeAsync().ConfigureAwait(false);
            else socket.Dispose();
            if (ex is OperationCanceledException && connectTimeout.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
            {
                throw new BeanstalkdUnavailableException(endpoint,
                    $"no connection within {options.ConnectTimeout.TotalMilliseconds:0} ms", new TimeoutException(null, ex));
            }
            throw;
        }
    }

    /// <summary>
    /// Sends one command and returns its reply. <paramref name="deadline"/>
    /// (<see cref="Environment.TickCount64"/>) bounds the wait; past it the connection is dropped.
    /// <paramref name="cancellationToken"/> only stops this caller waiting: the reply still comes
    /// and is dropped, so the connection stays in step.
    /// </summary>
    public Task<BeanstalkdReply> SendAsync(BeanstalkdCommand command, ulong id, ReadOnlySpan<byte> body, long deadline,
        CancellationToken cancellationToken)
    {
        var pending = new BeanstalkdPendingReply(command, deadline);
        pending.CancelWith(cancellationToken);
        if (pending.Task.IsCompleted) return pending.Task; // cancelled already: nothing sent
        Enqueue(pending, id, body);
        return pending.Task;
    }

    /// <summary>Drops the connection: waiting calls fail, the loops end.</summary>
    public async ValueTask DisposeAsync()
    {
        Fail("the client was disposed", null);
        await Task.WhenAll(_readLoop, _writeLoop).ConfigureAwait(false);
    }

    private static void EnableKeepAlive(Socket socket)
    {
        // An idle connection to a host that vanished without a FIN would otherwise look open
        // until the next call waited out its timeout; with keepalive the reader learns within
        // about 45 s and the next call reconnects at once.
        socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive, true);
        socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime, 30);
        socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval, 5);
        socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveRetryCount, 3);
    }

    private void Start()
    {
        _readLoop = Task.Run(ReadLoopAsync);
        _writeLoop = Task.Run(WriteLoopAsync);
    }

    private void Enqueue(BeanstalkdPendingReply pending, ulong id, ReadOnlySpan<byte> body)
    {
        bool wasEmpty;
        lock (_queueLock)
        {
            // Checked under the lock Fail takes, so nothing is queued after the drain.
            if (_failure is { } failure)
            {
                pending.Fail(new BeanstalkdUnavailableException(_endpoint, failure, _failureCause));
                return;
            }
            wasEmpty = _queued.WrittenCount == 0;
            _commands.Write(_queued, pending.Command, id, body);
            _pending.Enqueue(pending);
        }
        // Only the empty → non-empty transition wakes the writer: it drains until empty.
        if (wasEmpty) _wake.Writer.TryWrite(true);
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
                    if (_writing.Capacity > KeptBufferSize) _writing = new ArrayBufferWriter<byte>(SendBufferSize);
                    else _writing.ResetWrittenCount();
                }
            }
        }
        catch (Exception ex)
        {
            Fail("connection lost while sending", ex);
        }
    }

    private async Task ReadLoopAsync()
    {
        var buffer = new byte[ReceiveBufferSize];
        int start = 0, end = 0;
        try
        {
            while (true)
            {
                int needed;
                while (true)
                {
                    var status = BeanstalkdReplyFrame.TryRead(buffer.AsSpan(start, end - start), out var frame, out var length);
                    if (status == BeanstalkdFrameStatus.Incomplete)
                    {
                        needed = length;
                        break;
                    }
                    if (status == BeanstalkdFrameStatus.Malformed)
                    {
                        DropAfter(BeanstalkdReplyParser.Describe(buffer.AsSpan(start, end - start)));
                        return;
                    }
                    if (!Dispatch(frame)) return;
                    start += length;
                }

                if (start == end)
                {
                    start = end = 0;
                    if (buffer.Length > KeptBufferSize) buffer = new byte[ReceiveBufferSize];
                }
                if (end == buffer.Length || needed > buffer.Length - start)
                {
                    // Move the partial reply to the front, growing the buffer for a large body.
                    var target = needed > buffer.Length || start == 0 ? new byte[Math.Max(needed, buffer.Length * 2)] : buffer;
                    Buffer.BlockCopy(buffer, start, target, 0, end - start);
                    (buffer, end, start) = (target, end - start, 0);
                }
                var read = await _stream.ReadAsync(buffer.AsMemory(end)).ConfigureAwait(false);
                if (read == 0)
                {
                    Fail("the server closed the connection", null);
                    return;
                }
                end += read;
            }
        }
        catch (Exception ex)
        {
            Fail("connection lost", ex);
        }
    }

    /// <summary>Hands one reply to the oldest waiting call; false when it broke the connection.</summary>
    private bool Dispatch(BeanstalkdReplyFrame frame)
    {
        if (!_pending.TryDequeue(out var pending))
        {
            var unsolicited = BeanstalkdReplyParser.Describe(frame.Line);
            Fail($"the server sent a reply to no command ('{unsolicited}'); the connection is dropped", null);
            return false;
        }
        switch (BeanstalkdReplyParser.Parse(pending.Command, frame, _commands.Tube.Span, _endpoint, out var reply, out var error))
        {
            case BeanstalkdReplyOutcome.Success:
                if (!pending.Succeed(reply) && pending.Command == BeanstalkdCommand.Reserve && reply.Body is not null)
                {
                    // The caller gave up before the job arrived: hand it back now rather than
                    // leaving it reserved (and invisible) until its time-to-run ends.
                    Enqueue(BeanstalkdPendingReply.Unawaited(BeanstalkdCommand.Release, Environment.TickCount64 + _timeoutMs),
                        reply.Number, default);
                }
                return true;
            case BeanstalkdReplyOutcome.ServerError:
                pending.Fail(error!);
                return true;
            default:
                pending.Fail(error!);
                Fail($"connection dropped after an unexpected reply to an earlier command ('{error!.Reply}')", error);
                return false;
        }
    }

    /// <summary>Bytes that are no reply: the oldest call gets them as its error, the others lose the connection.</summary>
    private void DropAfter(string received)
    {
        var error = new BeanstalkdProtocolException(_endpoint, received, $"unparsable reply '{received}'; the connection is dropped");
        if (_pending.TryDequeue(out var pending)) pending.Fail(error);
        Fail($"connection dropped after an unparsable reply ('{received}')", error);
    }

    /// <summary>Drops the connection when any call waits past its deadline (the timer's callback).</summary>
    private void ExpireOverdue()
    {
        if (_pending.IsEmpty) return;
        var now = Environment.TickCount64;
        foreach (var pending in _pending)
        {
            if (pending.Deadline <= now)
            {
                // Every call behind the late one would wait for it anyway: replies come in order.
                Fail($"no reply within the timeout ({BeanstalkdReplyParser.NameOf(pending.Command)}); the connection is dropped, as later replies would be out of order",
                    new TimeoutException());
                return;
            }
        }
    }

    private void Fail(string reason, Exception? cause)
    {
        lock (_queueLock)
        {
            if (_failure is not null) return;
            _failureCause = cause;
            Volatile.Write(ref _failure, reason);
        }
        while (_pending.TryDequeue(out var pending))
        {
            pending.Fail(new BeanstalkdUnavailableException(_endpoint, reason, cause));
        }
        _wake.Writer.TryComplete();
        _deadlines.Dispose();
        _stream.Dispose(); // closes the socket, which ends a read or write in progress
    }
}
