using System.Buffers.Text;

namespace Beanstalkd.Client;

/// <summary>
/// One reply, cut out of the received bytes without copying: its line (without CRLF) and, for
/// the replies that carry data (<c>RESERVED &lt;id&gt; &lt;bytes&gt;</c>, <c>OK &lt;bytes&gt;</c>,
/// <c>FOUND &lt;id&gt; &lt;bytes&gt;</c>), exactly that many bytes after it, which may contain
/// anything, CRLF included: only the byte count delimits them.
/// </summary>
internal readonly ref struct BeanstalkdReplyFrame
{
    /// <summary>
    /// Longer than any reply line can be (the longest is <c>USING</c> and a 200-byte tube name):
    /// more bytes without a CRLF mean the peer does not speak beanstalkd.
    /// </summary>
    public const int MaxLineLength = 1024;

    /// <summary>beanstalkd's own ceiling on a job's size (its -z option cannot go higher).</summary>
    public const int MaxDataLength = 1 << 30;

    private BeanstalkdReplyFrame(ReadOnlySpan<byte> line, ReadOnlySpan<byte> data)
    {
        Line = line;
        Data = data;
    }

    /// <summary>The reply line without its CRLF.</summary>
    public ReadOnlySpan<byte> Line { get; }

    /// <summary>The data after the line, without its closing CRLF; empty for one-line replies.</summary>
    public ReadOnlySpan<byte> Data { get; }

    /// <summary>
    /// Looks for one whole reply at the start of <paramref name="received"/>. <paramref name="length"/>
    /// is the reply's size when <see cref="BeanstalkdFrameStatus.Complete"/>; when
    /// <see cref="BeanstalkdFrameStatus.Incomplete"/>, the size it will have once known (0 while the
    /// line itself is incomplete), so the caller can make room for a large body at once.
    /// </summary>
    public static BeanstalkdFrameStatus TryRead(ReadOnlySpan<byte> received, out BeanstalkdReplyFrame frame, out int length)
    {
        frame = default;
        length = 0;
        var lineEnd = received.IndexOf("\r\n"u8);
        if (lineEnd < 0)
        {
            return received.Length > MaxLineLength ? BeanstalkdFrameStatus.Malformed : BeanstalkdFrameStatus.Incomplete;
        }
        if (lineEnd > MaxLineLength) return BeanstalkdFrameStatus.Malformed;
        var line = received[..lineEnd];
        if (!CarriesData(line))
        {
            frame = new BeanstalkdReplyFrame(line, default);
            length = lineEnd + 2;
            return BeanstalkdFrameStatus.Complete;
        }

        var lastSpace = line.LastIndexOf((byte)' ');
        if (!TryParseCount(line[(lastSpace + 1)..], out var dataLength)) return BeanstalkdFrameStatus.Malformed;
        var dataStart = lineEnd + 2;
        length = dataStart + dataLength + 2;
        if (received.Length < length) return BeanstalkdFrameStatus.Incomplete;
        if (!received.Slice(dataStart + dataLength, 2).SequenceEqual("\r\n"u8))
        {
            length = 0;
            return BeanstalkdFrameStatus.Malformed;
        }
        frame = new BeanstalkdReplyFrame(line, received.Slice(dataStart, dataLength));
        return BeanstalkdFrameStatus.Complete;
    }

    /// <summary>The reply's first word: its status (INSERTED, RESERVED, NOT_FOUND, …).</summary>
    public static ReadOnlySpan<byte> WordOf(ReadOnlySpan<byte> line)
    {
        var space = line.IndexOf((byte)' ');
        return space < 0 ? line : line[..space];
    }

    private static bool CarriesData(ReadOnlySpan<byte> line)
    {
        var word = WordOf(line);
        return word.Length < line.Length
            && (word.SequenceEqual("RESERVED"u8) || word.SequenceEqual("OK"u8) || word.SequenceEqual("FOUND"u8));
    }

    private static bool TryParseCount(ReadOnlySpan<byte> digits, out int count) =>
        Utf8Parser.TryParse(digits, out count, out var used)
        && used == digits.Length && digits.Length > 0 && char.IsAsciiDigit((char)digits[0])
        && count <= MaxDataLength;
}
