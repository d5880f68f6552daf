using System.Buffers.Text;
using System.Text;

namespace Beanstalkd.Client;

/// <summary>
/// Reads one reply as the answer to the command it belongs to, from the received bytes (no
/// strings are made on the success path; a reserved job's body is the one copy). Error words of
/// the protocol end the call but keep the connection, since the server stays in step with us;
/// anything else that does not fit the command drops it.
/// </summary>
internal static class BeanstalkdReplyParser
{
    private const int MaxDescribedLength = 80;

    /// <summary>The protocol's error words, any of which may answer any command.</summary>
    private static readonly string[] ErrorWords =
    [
        "OUT_OF_MEMORY", "INTERNAL_ERROR", "BAD_FORMAT", "UNKNOWN_COMMAND", "JOB_TOO_BIG", "DRAINING",
        "EXPECTED_CRLF", "NOT_FOUND", "NOT_IGNORED", "BURIED",
    ];

    /// <summary>
    /// Interprets <paramref name="frame"/> as the reply to <paramref name="command"/>.
    /// <paramref name="tube"/> is the client's tube, which USING must name.
    /// </summary>
    public static BeanstalkdReplyOutcome Parse(BeanstalkdCommand command, BeanstalkdReplyFrame frame, ReadOnlySpan<byte> tube,
        string endpoint, out BeanstalkdReply reply, out BeanstalkdProtocolException? error)
    {
        reply = BeanstalkdReply.None;
        error = null;
        var line = frame.Line;
        var parsed = command switch
        {
            BeanstalkdCommand.Put => TryNumber(line, "INSERTED "u8, out reply),
            BeanstalkdCommand.Reserve => TryReserved(frame, out reply) || line.SequenceEqual("TIMED_OUT"u8)
                // DEADLINE_SOON comes instead of TIMED_OUT only when no job is ready for us (a job
                // this connection reserved and has not deleted nears its time-to-run): no job either.
                || line.SequenceEqual("DEADLINE_SOON"u8),
            BeanstalkdCommand.Delete => line.SequenceEqual("DELETED"u8),
            BeanstalkdCommand.Release => line.SequenceEqual("RELEASED"u8),
            BeanstalkdCommand.Touch => line.SequenceEqual("TOUCHED"u8),
            BeanstalkdCommand.StatsTube => TryReadyCount(frame, out reply) || line.SequenceEqual("NOT_FOUND"u8),
            BeanstalkdCommand.ListTubeUsed or BeanstalkdCommand.Use => IsUsing(line, tube),
            BeanstalkdCommand.Watch or BeanstalkdCommand.IgnoreDefault => TryNumber(line, "WATCHING "u8, out _),
            _ => false,
        };
        if (parsed) return BeanstalkdReplyOutcome.Success;

        reply = BeanstalkdReply.None;
        var word = BeanstalkdReplyFrame.WordOf(line);
        foreach (var known in ErrorWords)
        {
            // Error words stand alone, but for put's "BURIED <id>" (no memory to grow the ready queue).
            if (Ascii.Equals(word, known) && (word.Length == line.Length || known == "BURIED"))
            {
                error = new BeanstalkdProtocolException(endpoint, known, $"{NameOf(command)} failed: {Describe(line)}");
                return BeanstalkdReplyOutcome.ServerError;
            }
        }
        var described = Describe(line);
        error = new BeanstalkdProtocolException(endpoint, described,
            $"unexpected reply to {NameOf(command)}: '{described}'; the connection is dropped");
        return BeanstalkdReplyOutcome.Unexpected;
    }

    /// <summary>The command's name in the protocol, for messages.</summary>
    public static string NameOf(BeanstalkdCommand command) => command switch
    {
        BeanstalkdCommand.Put => "put",
        BeanstalkdCommand.Reserve => "reserve-with-timeout",
        BeanstalkdCommand.Delete => "delete",
        BeanstalkdCommand.Release => "release",
        BeanstalkdCommand.Touch => "touch",
        BeanstalkdCommand.StatsTube => "stats-tube",
        BeanstalkdCommand.ListTubeUsed => "list-tube-used",
        BeanstalkdCommand.Use => "use",
        BeanstalkdCommand.Watch => "watch",
        BeanstalkdCommand.IgnoreDefault => "ignore",
        _ => command.ToString(),
    };

    /// <summary>
    /// Bytes from the server made safe for a message: at most 80, printable ASCII as is, anything
    /// else as \xNN (a peer that is not beanstalkd may send anything).
    /// </summary>
    public static string Describe(ReadOnlySpan<byte> bytes)
    {
        var text = new StringBuilder(Math.Min(bytes.Length, MaxDescribedLength) + 8);
        foreach (var b in bytes[..Math.Min(bytes.Length, MaxDescribedLength)])
        {
            if (b is >= 0x20 and < 0x7f && b != '\\') text.Append((char)b);
            else text.Append($"\\x{b:x2}");
        }
        if (bytes.Length > MaxDescribedLength) text.Append('…');
        return text.ToString();
    }

    private static bool TryReserved(BeanstalkdReplyFrame frame, out BeanstalkdReply reply)
    {
        reply = BeanstalkdReply.None;
        var line = frame.Line;
        if (!line.StartsWith("RESERVED "u8)) return false;
        var arguments = line["RESERVED "u8.Length..];
        var space = arguments.IndexOf((byte)' ');
        // The byte count was checked against the data by the framing; the id is all that is left.
        if (space < 0 || !TryParse(arguments[..space], out var id)) return false;
        reply = new BeanstalkdReply(id, frame.Data.ToArray());
        return true;
    }

    private static bool TryReadyCount(BeanstalkdReplyFrame frame, out BeanstalkdReply reply)
    {
        reply = BeanstalkdReply.None;
        if (!frame.Line.StartsWith("OK "u8)) return false;
        // The YAML is a flat map, one "key: value" a line; the key is matched at a line start.
        ReadOnlySpan<byte> key = "\ncurrent-jobs-ready: "u8;
        var data = frame.Data;
        var at = data.IndexOf(key);
        if (at < 0) return false;
        var value = data[(at + key.Length)..];
        var end = value.IndexOf((byte)'\n');
        if (end >= 0) value = value[..end];
        if (!TryParse(value.TrimEnd((byte)'\r'), out var count)) return false;
        reply = new BeanstalkdReply(count, null);
        return true;
    }

    private static bool TryNumber(ReadOnlySpan<byte> line, ReadOnlySpan<byte> prefix, out BeanstalkdReply reply)
    {
        reply = BeanstalkdReply.None;
        if (!line.StartsWith(prefix) || !TryParse(line[prefix.Length..], out var number)) return false;
        reply = new BeanstalkdReply(number, null);
        return true;
    }

    private static bool IsUsing(ReadOnlySpan<byte> line, ReadOnlySpan<byte> tube) =>
        line.StartsWith("USING "u8) && line["USING "u8.Length..].SequenceEqual(tube);

    /// <summary>A decimal number and nothing else (no sign, no spaces).</summary>
    private static bool TryParse(ReadOnlySpan<byte> digits, out ulong value) =>
        Utf8Parser.TryParse(digits, out value, out var used)
        && used == digits.Length && digits.Length > 0 && char.IsAsciiDigit((char)digits[0]);
}
