using System.Collections.Concurrent;
using System.Net.Sockets;
using Wire.Connections;

namespace Beanstalkd.Client;

/// <summary>
/// One socket to beanstalkd carrying many calls at once. beanstalkd answers a connection's
/// commands one by one in the order it received them, so commands are written in the order the
/// replies are expected: a caller appends its command to the shared <see cref="PipelinedWriter"/> and
/// its <see cref="BeanstalkdPendingReply"/> to a FIFO under the writer's one lock; a reader loop
/// cuts replies out of the received bytes and hands each to the oldest waiting call.
/// <para>
/// Matching by order only works while every reply arrives, so the connection is dropped — and
/// stays broken, failing every waiting and later call with
/// <see cref="BeanstalkdUnavailableException"/> — when a reply does not come by its deadline,
/// when a reply cannot be parsed, or when the socket fails. The owner then opens a new one.
/// </para>
/// </summary>
internal sealed class BeanstalkdConnection : IKeptConnection
{
    // An idle connection to a host that vanished without a FIN would otherwise look open until the
    // next call waited out its timeout; with keepalive the reader learns within about 45 s and the
    // next call reconnects at once.
    private static readonly TcpKeepAlive KeepAlive = new(IdleSeconds: 30, IntervalSeconds: 5, RetryCount: 3);

    private const int ReceiveBufferSize = 16 * 1024;
    private const int SendBufferSize = 4 * 1024;

    /// <summary>A receive buffer grown beyond this by a large job is replaced once it has passed, so one big body does not stay pinned.</summary>
    private const int KeptBufferSize = 1024 * 1024;

    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly string _endpoint;
    private readonly BeanstalkdCommandWriter _commands;
    private readonly long _timeoutMs;
    private readonly PipelinedWriter _writer;
    private readonly ConcurrentQueue<BeanstalkdPendingReply> _pending = new();
    private readonly Timer _deadlines;
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private Task _readLoop = Task.CompletedTask;

    private BeanstalkdConnection(Socket socket, string endpoint, BeanstalkdCommandWriter commands, TimeSpan timeout)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _writer = new PipelinedWriter(_stream, ex => Fail("connection lost while sending", ex), SendBufferSize);
        _endpoint = endpoint;
        _commands = commands;
        _timeoutMs = (long)timeout.TotalMilliseconds;
        var sweep = PendingReply.SweepInterval(timeout);
        _deadlines = new Timer(static state => ((BeanstalkdConnection)state!).ExpireOverdue(), this, sweep, sweep);
    }

    /// <summary>False once the connection broke or was disposed; it never opens again.</summary>
    public bool IsOpen => _writer.ClosedBecause is null;

    /// <summary>Completes when the connection broke or was disposed.</summary>
    public Task Closed => _closed.Task;

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
        var socket = KeepAlive.CreateSocket();
        BeanstalkdConnection? connection = null;
        using var connectTimeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        connectTimeout.CancelAfter(options.ConnectTimeout);
        try
        {
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
        Dispose();
        await Task.WhenAll(_readLoop, _writer.Completion).ConfigureAwait(false);
    }

    /// <summary>Drops the connection without waiting for its loops to end.</summary>
    public void Dispose() => Fail("the client was disposed", null);

    private void Start()
    {
        _readLoop = Task.Run(ReadLoopAsync);
        _writer.Start();
    }

    private void Enqueue(BeanstalkdPendingReply pending, ulong id, ReadOnlySpan<byte> body)
    {
        var frame = new Command(_commands, pending, id, body, _pending);
        if (!_writer.TryEnqueue(ref frame))
        {
            var failure = (BeanstalkdException)_writer.ClosedBecause!;
            pending.Fail(new BeanstalkdUnavailableException(_endpoint, failure.Detail, failure.InnerException));
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
        // After this no command is queued (nor waits), so the drain below misses none.
        if (!_writer.TryClose(new BeanstalkdUnavailableException(_endpoint, reason, cause))) return;
        while (_pending.TryDequeue(out var pending))
        {
            pending.Fail(new BeanstalkdUnavailableException(_endpoint, reason, cause));
        }
        _deadlines.Dispose();
        _stream.Dispose(); // closes the socket, which ends a read or write in progress
        _closed.TrySetResult();
    }

    /// <summary>One command as the writer queues it; its reply is awaited, in order, once the command is queued.</summary>
    private readonly ref struct Command(BeanstalkdCommandWriter commands, BeanstalkdPendingReply pending, ulong id,
        ReadOnlySpan<byte> body, ConcurrentQueue<BeanstalkdPendingReply> waiting) : IOutgoingFrame
    {
        private readonly ReadOnlySpan<byte> _body = body;

        public void WriteTo(PooledBufferWriter output)
        {
            commands.Write(output, pending.Command, id, _body);
            waiting.Enqueue(pending);
        }
    }
}
