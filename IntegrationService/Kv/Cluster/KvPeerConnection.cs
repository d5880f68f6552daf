using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// One keep-alive HTTP/1.1 connection to another node, carrying one exchange at a time: the request
/// (line, headers and body) goes out in one send, the answer is read through a <see cref="PipeReader"/>
/// whole (Content-Length or chunked) and its status, the headers <see cref="RelayedAnswer"/> relays and
/// its body kept. Only what a forwarded key-value request needs: beyond its answer's body and the
/// async state of its awaits, a request allocates no message, header or content objects. A connection on
/// which anything went wrong is disposed, never reused (<see cref="Reusable"/>).
/// </summary>
internal sealed class KvPeerConnection : IDisposable
{
    // Kestrel takes a request line of at most 8 KiB, so a forwarded one fits with its headers.
    private const int SendBufferBytes = 16 * 1024;
    private const int MaxHeadBytes = 16 * 1024;
    private const long MaxAnswerBytes = 2L * KvLimits.MaxValueBytes; // a value or a small ProblemDetails

    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly PipeReader _reader;
    private readonly byte[] _send = new byte[SendBufferBytes];
    private readonly byte[] _headers; // Host and X-Kv-Proxied, the same on every request
    private readonly CancellationTokenSource _deadline = new(); // reset after each exchange, so none allocates one

    private KvPeerConnection(Socket socket, byte[] headers)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _reader = PipeReader.Create(_stream, new StreamPipeReaderOptions(bufferSize: 4096, leaveOpen: true));
        _headers = headers;
    }

    /// <summary>False once an exchange failed or the node asked to close: the connection is then disposed.</summary>
    public bool Reusable { get; private set; } = true;

    /// <summary>Whether it carried an exchange before (the node may have closed it meanwhile).</summary>
    public bool Used { get; private set; }

    /// <summary><see cref="Environment.TickCount64"/> when it last went back to the pool.</summary>
    public long IdleSince { get; set; }

    /// <summary>Connects within <paramref name="timeout"/>; throws <see cref="KvPeerConnectException"/> when it cannot (nothing was sent).</summary>
    public static async Task<KvPeerConnection> OpenAsync(EndPoint endPoint, byte[] headers, TimeSpan timeout, CancellationToken aborted)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(aborted);
        deadline.CancelAfter(timeout);
        try
        {
            await socket.ConnectAsync(endPoint, deadline.Token);
            return new KvPeerConnection(socket, headers);
        }
        catch (Exception e) when (e is SocketException || (e is OperationCanceledException && !aborted.IsCancellationRequested))
        {
            socket.Dispose();
            throw new KvPeerConnectException(e is SocketException ? e.Message : $"no connection within {timeout.TotalMilliseconds:0} ms", e);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Sends <c>method path?query</c> with <paramref name="body"/> and reads the whole answer, within
    /// <paramref name="timeout"/> (then an <see cref="OperationCanceledException"/>) unless
    /// <paramref name="aborted"/> ends it first.
    /// </summary>
    public async Task<RelayedAnswer> ExchangeAsync(string method, string path, string? query, byte[]? body, TimeSpan timeout, CancellationToken aborted)
    {
        Reusable = false; // until the answer is read whole
        Used = true;
        _deadline.CancelAfter(timeout);
        var link = aborted.UnsafeRegister(static deadline => ((CancellationTokenSource)deadline!).Cancel(), _deadline);
        try
        {
            var answer = await SendAndReceiveAsync(method, path, query, body, _deadline.Token);
            link.Dispose(); // before the reset: a client leaving now must not cancel the next exchange
            // A deadline that fired after the answer was read leaves the connection fine, but its source unusable.
            Reusable = _deadline.TryReset() && Reusable;
            return answer;
        }
        catch
        {
            Reusable = false;
            throw;
        }
        finally
        {
            link.Dispose();
        }
    }

    private async Task<RelayedAnswer> SendAndReceiveAsync(string method, string path, string? query, byte[]? body, CancellationToken cancellationToken)
    {
        var head = FormatRequest(method, path, query, body);
        if (body is null || head + body.Length <= _send.Length)
        {
            body?.CopyTo(_send, head);
            await _socket.SendAsync(_send.AsMemory(0, head + (body?.Length ?? 0)), SocketFlags.None, cancellationToken);
        }
        else
        {
            await _socket.SendAsync(_send.AsMemory(0, head), SocketFlags.None, cancellationToken);
            await _socket.SendAsync(body, SocketFlags.None, cancellationToken);
        }
        var answer = await ReadHeadAsync(cancellationToken);
        var content = answer.Chunked ? await ReadChunkedAsync(cancellationToken)
            : answer.ContentLength > 0 ? await ReadExactlyAsync(answer.ContentLength, cancellationToken)
            : [];
        Reusable = !answer.Close;
        return new RelayedAnswer(answer.Status, answer.ContentType, answer.Allow, answer.RetryAfter, content);
    }

    public void Dispose()
    {
        _reader.Complete();
        _stream.Dispose();
        _deadline.Dispose();
    }

    private int FormatRequest(string method, string path, string? query, byte[]? body)
    {
        var span = _send.AsSpan();
        var n = Encoding.ASCII.GetBytes(method, span);
        span[n++] = (byte)' ';
        n += Encoding.ASCII.GetBytes(path, span[n..]);
        // The query as the client sent it (escaped), so the owner binds exactly what this node bound.
        if (Encoding.UTF8.GetByteCount(query ?? "") > MaxHeadBytes / 2) throw new KvPeerProtocolException("the request's query is too long to forward");
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
        return n;
    }

    private static int Append(Span<byte> to, ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(to);
        return bytes.Length;
    }

    private async ValueTask<AnswerHead> ReadHeadAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await _reader.ReadAsync(cancellationToken);
            var buffer = result.Buffer;
            if (AnswerHead.TryParse(ref buffer, out var head))
            {
                _reader.AdvanceTo(buffer.Start);
                return head;
            }
            if (result.IsCompleted) throw result.Buffer.IsEmpty ? new KvPeerClosedException() : Closed();
            if (result.Buffer.Length > MaxHeadBytes) throw new KvPeerProtocolException($"the answer's head exceeds {MaxHeadBytes} bytes");
            _reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private async ValueTask<byte[]> ReadExactlyAsync(long length, CancellationToken cancellationToken)
    {
        if (length > MaxAnswerBytes) throw new KvPeerProtocolException($"the answer's {length} bytes exceed the {MaxAnswerBytes} a value or a problem can take");
        var result = await _reader.ReadAtLeastAsync((int)length, cancellationToken);
        if (result.Buffer.Length < length) throw Closed();
        var body = result.Buffer.Slice(0, length).ToArray();
        _reader.AdvanceTo(result.Buffer.GetPosition(length));
        return body;
    }

    // A ProblemDetails comes chunked (Kestrel writes JSON without a length); a value never does.
    private async ValueTask<byte[]> ReadChunkedAsync(CancellationToken cancellationToken)
    {
        var body = new ArrayBufferWriter<byte>();
        while (true)
        {
            var size = await ReadChunkSizeAsync(cancellationToken);
            if (body.WrittenCount + size > MaxAnswerBytes) throw new KvPeerProtocolException($"the chunked answer exceeds {MaxAnswerBytes} bytes");
            var result = await _reader.ReadAtLeastAsync(size + 2, cancellationToken); // the data and its CRLF (the last: the empty trailer's)
            if (result.Buffer.Length < size + 2) throw Closed();
            result.Buffer.Slice(0, size).CopyTo(body.GetSpan(size));
            body.Advance(size);
            _reader.AdvanceTo(result.Buffer.GetPosition(size + 2));
            if (size == 0) return body.WrittenSpan.ToArray();
        }
    }

    private async ValueTask<int> ReadChunkSizeAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await _reader.ReadAsync(cancellationToken);
            var buffer = result.Buffer;
            if (AnswerHead.TryReadChunkSize(ref buffer, out var size))
            {
                _reader.AdvanceTo(buffer.Start);
                return size;
            }
            if (result.IsCompleted) throw Closed();
            _reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private static IOException Closed() => new("the node closed the connection in the middle of its answer");
}

/// <summary>The node closed a connection before any byte of an answer: on a reused one, it had closed it while idle.</summary>
internal sealed class KvPeerClosedException() : IOException("the node closed the connection before answering");

/// <summary>No connection to the node could be opened: the request was not sent.</summary>
internal sealed class KvPeerConnectException(string message, Exception inner) : IOException(message, inner);

/// <summary>An answer this node cannot relay (no length, too large, malformed).</summary>
internal sealed class KvPeerProtocolException(string message) : IOException(message);
