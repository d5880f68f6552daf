using System.Buffers;
using System.Globalization;
using System.Text;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// The head of an owner's HTTP/1.1 answer as <see cref="KvPeerConnection"/> needs it: the status, how
/// the body is framed, whether the connection stays open, and the raw values of the headers
/// <see cref="RelayedAnswer"/> relays. Every other header is skipped.
/// </summary>
internal readonly record struct AnswerHead(int Status, long ContentLength, bool Chunked, bool Close, string? ContentType, string? Allow, string? RetryAfter)
{
    private const string OctetStream = "application/octet-stream";
    private const string ProblemJson = "application/problem+json";

    /// <summary>Parses a complete head off the front of <paramref name="buffer"/>; false (buffer untouched) when it is not all there yet.</summary>
    public static bool TryParse(ref ReadOnlySequence<byte> buffer, out AnswerHead head)
    {
        head = default;
        var reader = new SequenceReader<byte>(buffer);
        if (!reader.TryReadTo(out ReadOnlySpan<byte> statusLine, "\r\n"u8)) return false;
        // "HTTP/1.1 200 OK"
        if (statusLine.Length < 12 || !statusLine.StartsWith("HTTP/1.1 "u8) || !int.TryParse(statusLine.Slice(9, 3), NumberStyles.None, CultureInfo.InvariantCulture, out var status))
            throw new KvPeerProtocolException("the answer does not start with an HTTP/1.1 status line");
        long length = -1;
        bool chunked = false, close = false;
        string? contentType = null, allow = null, retryAfter = null;
        while (true)
        {
            if (!reader.TryReadTo(out ReadOnlySpan<byte> line, "\r\n"u8)) return false;
            if (line.IsEmpty) break;
            var colon = line.IndexOf((byte)':');
            if (colon <= 0) throw new KvPeerProtocolException("the answer has a malformed header line");
            var name = line[..colon];
            var value = line[(colon + 1)..].Trim((byte)' ');
            if (Ascii.EqualsIgnoreCase(name, "Content-Length"u8))
            {
                if (!long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out length)) throw new KvPeerProtocolException("the answer's Content-Length is not a number");
            }
            else if (Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8)) chunked = Ascii.EqualsIgnoreCase(value, "chunked"u8);
            else if (Ascii.EqualsIgnoreCase(name, "Connection"u8)) close = Ascii.EqualsIgnoreCase(value, "close"u8);
            else if (Ascii.EqualsIgnoreCase(name, "Content-Type"u8)) contentType = Known(value);
            else if (Ascii.EqualsIgnoreCase(name, "Allow"u8)) allow = Encoding.ASCII.GetString(value);
            else if (Ascii.EqualsIgnoreCase(name, "Retry-After"u8)) retryAfter = Encoding.ASCII.GetString(value);
        }
        // Kestrel frames every HTTP/1.1 answer with a body by a length or chunks; 204 and 304 have none.
        if (length < 0 && !chunked && status is not (204 or 304)) throw new KvPeerProtocolException($"the {status} answer has neither a Content-Length nor chunks");
        head = new AnswerHead(status, Math.Max(length, 0), chunked, close, contentType, allow, retryAfter);
        buffer = buffer.Slice(reader.Position);
        return true;
    }

    /// <summary>Parses a chunk-size line (<c>1a;ext\r\n</c>) off the front of <paramref name="buffer"/>; false when it is not all there yet.</summary>
    public static bool TryReadChunkSize(ref ReadOnlySequence<byte> buffer, out int size)
    {
        size = 0;
        var reader = new SequenceReader<byte>(buffer);
        if (!reader.TryReadTo(out ReadOnlySpan<byte> line, "\r\n"u8)) return false;
        var extension = line.IndexOf((byte)';');
        if (extension >= 0) line = line[..extension];
        if (!int.TryParse(line.Trim((byte)' '), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out size) || size < 0)
            throw new KvPeerProtocolException("the answer has a malformed chunk size");
        buffer = buffer.Slice(reader.Position);
        return true;
    }

    // The two types an owner answers with, so that relaying them allocates no string.
    private static string Known(ReadOnlySpan<byte> value) =>
        value.SequenceEqual("application/octet-stream"u8) ? OctetStream
        : value.SequenceEqual("application/problem+json"u8) ? ProblemJson
        : Encoding.ASCII.GetString(value);
}
