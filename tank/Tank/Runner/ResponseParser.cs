namespace Tank.Runner;

/// <summary>
/// Incremental HTTP/1.x response parser: finds the end of a response across any split of the
/// bytes (Content-Length, chunked, or read-until-close), and notes the status and Connection: close.
/// Only the header block is copied; body bytes are counted, not kept.
/// </summary>
public sealed class ResponseParser
{
    private enum State { Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, UntilClose, Done }

    private readonly byte[] _head = new byte[16 * 1024];
    private int _headLength;
    private State _state;
    private long _remaining;
    private int _lineLength;
    private long _chunkSize;
    private bool _chunkSizeDone;

    public int Status { get; private set; }
    public bool CloseAfter { get; private set; }
    public bool IsComplete => _state == State.Done;
    public bool ReadsUntilClose => _state == State.UntilClose;

    public void Reset()
    {
        _state = State.Headers;
        _headLength = 0;
        Status = 0;
        CloseAfter = false;
    }

    /// <summary>Consumes bytes; returns false when the bytes are not a valid response.</summary>
    public bool Consume(ReadOnlySpan<byte> data)
    {
        var i = 0;
        while (i < data.Length && _state != State.Done)
        {
            switch (_state)
            {
                case State.Headers:
                    if (_headLength == _head.Length) return false;
                    _head[_headLength++] = data[i++];
                    if (_headLength >= 4 && _head[_headLength - 1] == '\n' && _head[_headLength - 2] == '\r'
                        && _head[_headLength - 3] == '\n' && _head[_headLength - 4] == '\r' && !ParseHead()) return false;
                    break;
                case State.Body:
                    var take = (int)Math.Min(_remaining, data.Length - i);
                    i += take;
                    _remaining -= take;
                    if (_remaining == 0) _state = State.Done;
                    break;
                case State.ChunkSize:
                    if (!ChunkSizeByte(data[i++])) return false;
                    break;
                case State.ChunkData:
                    var chunk = (int)Math.Min(_remaining, data.Length - i);
                    i += chunk;
                    _remaining -= chunk;
                    if (_remaining == 0) { _state = State.ChunkDataEnd; _lineLength = 0; }
                    break;
                case State.ChunkDataEnd:
                    if (data[i++] == '\n') StartChunkSize();
                    break;
                case State.Trailers:
                    var b = data[i++];
                    if (b == '\n') { if (_lineLength == 0) _state = State.Done; _lineLength = 0; }
                    else if (b != '\r') _lineLength++;
                    break;
                case State.UntilClose:
                    i = data.Length;
                    break;
            }
        }
        return true;
    }

    // Span-based so the hot path allocates nothing per response.
    private bool ParseHead()
    {
        ReadOnlySpan<byte> head = _head.AsSpan(0, _headLength - 2);
        var lineEnd = head.IndexOf("\r\n"u8);
        var statusLine = head[..lineEnd];
        if (!statusLine.StartsWith("HTTP/1."u8) || statusLine.Length < 12 || statusLine[8] != ' '
            || !int.TryParse(System.Text.Encoding.ASCII.GetString(statusLine.Slice(9, 3)), out var code))
            return false;
        if (code is >= 100 and < 200) { _headLength = 0; return true; } // 100 Continue: the real answer follows
        Status = code;
        var http10 = statusLine[7] == '0';
        long length = -1;
        var chunked = false;
        var keepAlive = false;
        var rest = head[(lineEnd + 2)..];
        while (rest.Length > 0)
        {
            var end = rest.IndexOf("\r\n"u8);
            var line = end < 0 ? rest : rest[..end];
            rest = end < 0 ? default : rest[(end + 2)..];
            var colon = line.IndexOf((byte)':');
            if (colon <= 0) continue;
            var name = line[..colon].Trim((byte)' ');
            var value = line[(colon + 1)..].Trim((byte)' ');
            if (name.Length == 14 && System.Text.Ascii.EqualsIgnoreCase(name, "Content-Length"u8))
            {
                if (!System.Buffers.Text.Utf8Parser.TryParse(value, out length, out _)) return false;
            }
            else if (name.Length == 17 && System.Text.Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8))
                chunked = Contains(value, "chunked"u8);
            else if (name.Length == 10 && System.Text.Ascii.EqualsIgnoreCase(name, "Connection"u8))
            {
                CloseAfter |= Contains(value, "close"u8);
                keepAlive |= Contains(value, "keep-alive"u8);
            }
        }
        if (http10 && !keepAlive) CloseAfter = true;
        if (code is 204 or 304) _state = State.Done;
        else if (chunked) StartChunkSize();
        else if (length >= 0) { _remaining = length; _state = length == 0 ? State.Done : State.Body; }
        else { _state = State.UntilClose; CloseAfter = true; }
        return true;
    }

    private static bool Contains(ReadOnlySpan<byte> value, ReadOnlySpan<byte> word)
    {
        for (var i = 0; i + word.Length <= value.Length; i++)
            if (System.Text.Ascii.EqualsIgnoreCase(value.Slice(i, word.Length), word)) return true;
        return false;
    }

    private void StartChunkSize()
    {
        _state = State.ChunkSize;
        _chunkSize = 0;
        _chunkSizeDone = false;
        _lineLength = 0;
    }

    // "1a;ext=1\r\n": hex digits, then anything up to LF.
    private bool ChunkSizeByte(byte b)
    {
        if (b == '\n')
        {
            if (_lineLength == 0) return false;
            if (_chunkSize == 0) { _state = State.Trailers; _lineLength = 0; }
            else { _remaining = _chunkSize; _state = State.ChunkData; }
            return true;
        }
        var digit = b switch { >= (byte)'0' and <= (byte)'9' => b - '0', >= (byte)'a' and <= (byte)'f' => b - 'a' + 10, >= (byte)'A' and <= (byte)'F' => b - 'A' + 10, _ => -1 };
        if (digit >= 0 && !_chunkSizeDone) { _chunkSize = _chunkSize * 16 + digit; _lineLength++; }
        else _chunkSizeDone = true;
        return true;
    }

    /// <summary>The server closed the connection: complete if the response was read-until-close.</summary>
    public void EndOfStream()
    {
        if (_state == State.UntilClose) _state = State.Done;
    }
}
