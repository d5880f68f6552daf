using System.Buffers;
using System.Collections.Concurrent;
using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using Wire.Connections;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// One connection to another node carrying many forwarded requests at once, in the hop's own frames
/// (<see cref="KvPeerProtocol"/>). The owner answers a connection's requests in the order it received
/// them, so a caller appends its request to the shared <see cref="PipelinedWriter"/> and its waiter to
/// a FIFO under the writer's one lock; requests that arrive while a send is in flight go out together
/// in the next one, and one read loop cuts the answers out of the received bytes and hands each to the
/// oldest waiter. Many concurrent forwarded requests so cost few sends, receives and wake-ups on both
/// nodes.
/// <para>
/// Matching by order only works while every answer arrives, so the connection is dropped, and stays
/// broken, when an answer does not come by its request's deadline (that request fails with a
/// <see cref="TimeoutException"/>), when an answer cannot be parsed, when the node closes, or when the
/// socket fails. Every request still waiting then fails with <see cref="KvPeerClosedException"/>: its
/// answer never came, so the caller may send it again on a new connection. A caller that gives up
/// (<c>RequestAborted</c>) only stops waiting: its answer still comes, in its turn, and is dropped.
/// </para>
/// </summary>
internal sealed class KvPeerConnection : IDisposable
{
    // An idle connection to a node whose host vanished without a FIN would otherwise look open until
    // the next request waited out its timeout.
    // The owner sets the same on its side (KvPeerServer).
    internal static readonly TcpKeepAlive KeepAlive = new(IdleSeconds: 30, IntervalSeconds: 5, RetryCount: 3);

    private const int SendBufferBytes = 16 * 1024;
    private const int ReceiveBufferBytes = 16 * 1024;

    private readonly NetworkStream _stream;
    private readonly PipeReader _reader;
    private readonly PipelinedWriter _writer;
    private readonly ConcurrentQueue<PendingReply<KvPeerReply>> _pending = new();
    private readonly Timer _deadlines;

    private static readonly byte[] PrefaceBytes = KvPeerProtocol.Preface.ToArray();

    private KvPeerConnection(Socket socket, TimeSpan timeout)
    {
        _stream = new NetworkStream(socket, ownsSocket: true);
        _reader = PipeReader.Create(_stream, new StreamPipeReaderOptions(bufferSize: ReceiveBufferBytes, leaveOpen: true));
        _writer = new PipelinedWriter(_stream, e => Fail(new KvPeerClosedException("the connection failed while sending", e)), SendBufferBytes);
        var sweep = PendingReply.SweepInterval(timeout);
        _deadlines = new Timer(static state => ((KvPeerConnection)state!).ExpireOverdue(), this, sweep, sweep);
    }

    /// <summary>False once the connection broke or was disposed; it never opens again.</summary>
    public bool IsOpen => _writer.ClosedBecause is null;

    /// <summary>Connects within <paramref name="timeout"/>; throws <see cref="KvPeerConnectException"/> when it cannot (nothing was sent).</summary>
    public static async Task<KvPeerConnection> OpenAsync(EndPoint endPoint, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var socket = KeepAlive.CreateSocket();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        try
        {
            await socket.ConnectAsync(endPoint, deadline.Token);
            await socket.SendAsync(PrefaceBytes, SocketFlags.None, deadline.Token);
        }
        catch (Exception e) when (e is SocketException || (e is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            socket.Dispose();
            throw new KvPeerConnectException(e is SocketException ? e.Message : $"no connection within {timeout.TotalMilliseconds:0} ms", e);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
        var connection = new KvPeerConnection(socket, timeout);
        _ = Task.Run(connection.ReadLoopAsync); // ends with the connection; it catches everything itself
        connection._writer.Start();
        return connection;
    }

    /// <summary>
    /// Sends <paramref name="op"/> on <paramref name="key"/> (of the architecture <paramref name="storage"/>,
    /// null: the default) with <paramref name="value"/> and returns the owner's answer. Fails with a
    /// <see cref="TimeoutException"/> when no answer came by <paramref name="deadline"/>
    /// (<see cref="Environment.TickCount64"/>), with <see cref="KvPeerClosedException"/> when the connection
    /// ended first (the answer never came), and is cancelled when <paramref name="aborted"/> fires.
    /// </summary>
    public Task<KvPeerReply> ExchangeAsync(KvPeerOp op, string? storage, string key, ReadOnlyMemory<byte> value, long deadline, CancellationToken aborted)
    {
        var pending = new PendingReply<KvPeerReply>(deadline);
        pending.CancelWith(aborted);
        if (pending.Task.IsCompleted) return pending.Task; // the client left already: nothing sent
        var request = new Request(this, pending, op, storage, key, value);
        if (!_writer.TryEnqueue(ref request)) pending.Fail(new KvPeerClosedException("the connection had ended before the request was sent", _writer.ClosedBecause));
        return pending.Task;
    }

    /// <summary>Drops the connection: waiting requests fail (as never answered), the loops end.</summary>
    public void Dispose() => Fail(new KvPeerClosedException("the connection was closed by this node", null));

    private async Task ReadLoopAsync()
    {
        try
        {
            while (true)
            {
                var result = await _reader.ReadAsync();
                var buffer = result.Buffer;
                while (KvPeerProtocol.TryReadFrame(ref buffer, out var frame))
                {
                    var reply = KvPeerProtocol.ParseReply(frame);
                    if (!_pending.TryDequeue(out var pending))
                    {
                        Fail(new KvPeerProtocolException("the node sent an answer to no request; the connection is dropped"));
                        return;
                    }
                    pending.Succeed(reply);
                }
                if (result.IsCompleted)
                {
                    Fail(new KvPeerClosedException(buffer.IsEmpty ? "the node closed the connection" : "the node closed the connection in the middle of an answer", null));
                    return;
                }
                _reader.AdvanceTo(buffer.Start, buffer.End);
            }
        }
        catch (KvPeerProtocolException e)
        {
            // The oldest request gets the reason; the others were not answered and may go again.
            if (_pending.TryDequeue(out var pending)) pending.Fail(e);
            Fail(new KvPeerClosedException($"the connection was dropped after an answer it could not read ({e.Message})", e));
        }
        catch (Exception e)
        {
            Fail(new KvPeerClosedException("the connection failed while reading", e));
        }
        finally
        {
            await _reader.CompleteAsync();
        }
    }

    /// <summary>Drops the connection when a request waits past its deadline (the timer's callback).</summary>
    private void ExpireOverdue()
    {
        if (_pending.IsEmpty) return;
        var now = Environment.TickCount64;
        foreach (var pending in _pending)
        {
            if (pending.Deadline > now) continue;
            pending.Fail(new TimeoutException("no answer by the request's deadline"));
            // Every request behind the late one would wait for it: answers come in order.
            Fail(new KvPeerClosedException("the connection was dropped: an earlier request on it got no answer in time", null));
            return;
        }
    }

    private void Fail(Exception reason)
    {
        // After this nothing is queued (nor waits), so the drain below misses none.
        if (!_writer.TryClose(reason)) return;
        while (_pending.TryDequeue(out var pending)) pending.Fail(reason);
        _deadlines.Dispose();
        _stream.Dispose(); // closes the socket, which ends a read or send in progress
    }

    /// <summary>One request as the writer queues it: its bytes, then its waiter, in the order the answers will come.</summary>
    private readonly struct Request(KvPeerConnection connection, PendingReply<KvPeerReply> pending, KvPeerOp op, string? storage, string key, ReadOnlyMemory<byte> value) : IOutgoingFrame
    {
        public void WriteTo(PooledBufferWriter output)
        {
            var written = KvPeerProtocol.WriteRequest(output.GetSpan(KvPeerProtocol.MaxRequestBytes(value.Length)), op, storage, key, value.Span);
            output.Advance(written);
            connection._pending.Enqueue(pending);
        }
    }
}

/// <summary>
/// The connection ended before the request's answer came (the node closed it, restarted, broke it, or
/// an earlier request on it timed out): the request may have been applied, or never read.
/// </summary>
internal sealed class KvPeerClosedException(string message, Exception? inner) : IOException(message, inner);

/// <summary>No connection to the node could be opened: the request was not sent.</summary>
internal sealed class KvPeerConnectException(string message, Exception inner) : IOException(message, inner);

/// <summary>A frame that breaks <see cref="KvPeerProtocol"/> (too large, cut short, of an unknown kind).</summary>
internal sealed class KvPeerProtocolException(string message) : IOException(message);
