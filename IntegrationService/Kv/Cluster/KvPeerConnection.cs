using System.Buffers;
using System.Collections.Concurrent;
using System.Globalization;
using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Wire.Connections;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// One keep-alive HTTP/1.1 connection to another node carrying many forwarded requests at once
/// (pipelining). HTTP/1.1 answers a connection's requests in the order it received them, so a caller
/// appends its request to the shared <see cref="PipelinedWriter"/> and its waiter to a FIFO under the
/// writer's one lock; requests that arrive while a send is in flight go out together in the next one,
/// and one read loop cuts answers (status, the relayed headers, a body framed by Content-Length or
/// chunks) out of the received bytes and hands each to the oldest waiter. Many concurrent forwarded
/// requests so cost few sends, receives and wake-ups on both nodes.
/// <para>
/// Matching by order only works while every answer arrives, so the connection is dropped, and stays
/// broken, when an answer does not come by its request's deadline (that request fails with a
/// <see cref="TimeoutException"/>), when an answer cannot be parsed, when the node asks to close or
/// closes, or when the socket fails. Every request still waiting then fails with
/// <see cref="KvPeerClosedException"/>: its answer never came, so the caller may send it again on a new
/// connection. A caller that gives up (<c>RequestAborted</c>) only stops waiting: its answer still
/// comes, in its turn, and is dropped.
/// </para>
/// </summary>
internal sealed class KvPeerConnection : IDisposable
{
    // An idle connection to a node whose host vanished without a FIN would otherwise look open until
    // the next request waited out its timeout.
    private static readonly TcpKeepAlive KeepAlive = new(IdleSeconds: 30, IntervalSeconds: 5, RetryCount: 3);

    // Kestrel takes a request line of at most 8 KiB, so a forwarded one fits with its headers.
    private const int MaxHeadBytes = 16 * 1024;
    private const long MaxAnswerBytes = 2L * KvLimits.MaxValueBytes; // a value or a small ProblemDetails
    private const int SendBufferBytes = 16 * 1024;
    private const int ReceiveBufferBytes = 16 * 1024;

    private readonly NetworkStream _stream;
    private readonly PipeReader _reader;
    private readonly PipelinedWriter _writer;
    private readonly byte[] _headers; // Host and X-Kv-Proxied, the same on every request
    private readonly ConcurrentQueue<PendingReply<RelayedAnswer>> _pending = new();
    private readonly Timer _deadlines;

    private KvPeerConnection(Socket socket, byte[] headers, TimeSpan timeout)
    {
        _stream = new NetworkStream(socket, ownsSocket: true);
        _reader = PipeReader.Create(_stream, new StreamPipeReaderOptions(bufferSize: ReceiveBufferBytes, leaveOpen: true));
        _writer = new PipelinedWriter(_stream, e => Fail(new KvPeerClosedException("the connection failed while sending", e)), SendBufferBytes);
        _headers = headers;
        var sweep = PendingReply.SweepInterval(timeout);
        _deadlines = new Timer(static state => ((KvPeerConnection)state!).ExpireOverdue(), this, sweep, sweep);
    }

    /// <summary>False once the connection broke or was disposed; it never opens again.</summary>
    public bool IsOpen => _writer.ClosedBecause is null;

    /// <summary>Connects within <paramref name="timeout"/>; throws <see cref="KvPeerConnectException"/> when it cannot (nothing was sent).</summary>
    public static async Task<KvPeerConnection> OpenAsync(EndPoint endPoint, byte[] headers, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var socket = KeepAlive.CreateSocket();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        try
        {
            await socket.ConnectAsync(endPoint, deadline.Token);
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
        var connection = new KvPeerConnection(socket, headers, timeout);
        _ = Task.Run(connection.ReadLoopAsync); // ends with the connection; it catches everything itself
        connection._writer.Start();
        return connection;
    }

    /// <summary>
    /// Sends <c>method path?query</c> with <paramref name="body"/> and returns the whole answer. Fails
    /// with a <see cref="TimeoutException"/> when no answer came by <paramref name="deadline"/>
    /// (<see cref="Environment.TickCount64"/>), with <see cref="KvPeerClosedException"/> when the connection
    /// ended first (the answer never came), and is cancelled when <paramref name="aborted"/> fires.
    /// </summary>
    public Task<RelayedAnswer> ExchangeAsync(string method, string path, string? query, byte[]? body, long deadline, CancellationToken aborted)
    {
        // The query as the client sent it (escaped), so the owner binds exactly what this node bound.
        if (Encoding.UTF8.GetByteCount(query ?? "") > MaxHeadBytes / 2) throw new KvPeerProtocolException("the request's query is too long to forward");
        var pending = new PendingReply<RelayedAnswer>(deadline);
        pending.CancelWith(aborted);
        if (pending.Task.IsCompleted) return pending.Task; // the client left already: nothing sent
        var request = new Request(this, pending, method, path, query, body);
        if (!_writer.TryEnqueue(ref request)) pending.Fail(new KvPeerClosedException("the connection had ended before the request was sent", _writer.ClosedBecause));
        return pending.Task;
    }

    /// <summary>Drops the connection: waiting requests fail (as never answered), the loops end.</summary>
    public void Dispose() => Fail(new KvPeerClosedException("the connection was closed by this node", null));

    private int Format(Span<byte> span, string method, string path, string? query, byte[]? body)
    {
        var n = Encoding.ASCII.GetBytes(method, span);
        span[n++] = (byte)' ';
        n += Encoding.ASCII.GetBytes(path, span[n..]);
        n += Encoding.UTF8.GetBytes(query ?? "", span[n..]);
        n += Append(span[n..], " HTTP/1.1\r\n"u8);
        n += Append(span[n..], _headers);
        if (body is not null)
        {
            n += Append(span[n..], "Content-Type: application/octet-stream\r\nContent-Length: "u8);
            body.Length.TryFormat(span[n..], out var digits, provider: CultureInfo.InvariantCulture);
            n += digits;
            n += Append(span[n..], "\r\n"u8);
        }
        n += Append(span[n..], "\r\n"u8);
        if (body is not null) n += Append(span[n..], body);
        return n;
    }

    private static int Append(Span<byte> to, ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(to);
        return bytes.Length;
    }

    private async Task ReadLoopAsync()
    {
        try
        {
            while (true)
            {
                var result = await _reader.ReadAsync();
                var buffer = result.Buffer;
                while (TryReadAnswer(ref buffer, out var answer, out var close))
                {
                    if (!_pending.TryDequeue(out var pending))
                    {
                        Fail(new KvPeerProtocolException("the node sent an answer to no request; the connection is dropped"));
                        return;
                    }
                    pending.Succeed(answer);
                    if (close)
                    {
                        // The node will read nothing more: whatever was sent behind this request goes again elsewhere.
                        Fail(new KvPeerClosedException("the node closed the connection (Connection: close)", null));
                        return;
                    }
                }
                if (result.IsCompleted)
                {
                    Fail(new KvPeerClosedException(buffer.IsEmpty ? "the node closed the connection" : "the node closed the connection in the middle of an answer", null));
                    return;
                }
                if (buffer.Length > MaxHeadBytes + MaxAnswerBytes) throw new KvPeerProtocolException($"an answer exceeds {MaxHeadBytes + MaxAnswerBytes} bytes");
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

    /// <summary>
    /// Cuts one whole answer off the front of <paramref name="buffer"/>; false, <paramref name="buffer"/>
    /// untouched, when it has not all arrived yet.
    /// </summary>
    internal static bool TryReadAnswer(ref ReadOnlySequence<byte> buffer, out RelayedAnswer answer, out bool close)
    {
        answer = default;
        close = false;
        var rest = buffer;
        if (!AnswerHead.TryParse(ref rest, out var head))
        {
            if (rest.Length > MaxHeadBytes) throw new KvPeerProtocolException($"the answer's head exceeds {MaxHeadBytes} bytes");
            return false;
        }
        byte[] content;
        if (head.Chunked)
        {
            var body = new ArrayBufferWriter<byte>();
            while (true)
            {
                if (!AnswerHead.TryReadChunkSize(ref rest, out var size)) return false;
                if (body.WrittenCount + size > MaxAnswerBytes) throw new KvPeerProtocolException($"the chunked answer exceeds {MaxAnswerBytes} bytes");
                if (rest.Length < size + 2) return false; // the data and its CRLF (the last: the empty trailer's)
                rest.Slice(0, size).CopyTo(body.GetSpan(size));
                body.Advance(size);
                rest = rest.Slice(size + 2);
                if (size == 0) break;
            }
            content = body.WrittenSpan.ToArray();
        }
        else
        {
            if (head.ContentLength > MaxAnswerBytes) throw new KvPeerProtocolException($"the answer's {head.ContentLength} bytes exceed the {MaxAnswerBytes} a value or a problem can take");
            if (rest.Length < head.ContentLength) return false;
            content = head.ContentLength == 0 ? [] : rest.Slice(0, head.ContentLength).ToArray();
            rest = rest.Slice(head.ContentLength);
        }
        answer = new RelayedAnswer(head.Status, head.ContentType, head.Allow, head.RetryAfter, content);
        close = head.Close;
        buffer = rest;
        return true;
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
    private readonly struct Request(KvPeerConnection connection, PendingReply<RelayedAnswer> pending, string method, string path, string? query, byte[]? body) : IOutgoingFrame
    {
        public void WriteTo(PooledBufferWriter output)
        {
            var written = connection.Format(output.GetSpan(MaxHeadBytes + (body?.Length ?? 0)), method, path, query, body);
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

/// <summary>An answer this node cannot relay (no length, too large, malformed).</summary>
internal sealed class KvPeerProtocolException(string message) : IOException(message);
