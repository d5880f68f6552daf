using System.Buffers.Text;
using System.Text;

namespace Tank.Runner;

/// <summary>
/// Writes and reads phout lines: 12 TAB-separated fields, LF ends, send time as unix seconds with
/// three decimals, everything else integers (µs, bytes, codes). Formatting is allocation-free.
/// </summary>
public static class PhoutFormat
{
    public const int MaxLineBytes = 512 + 256;

    /// <summary>
    /// Beside phout.log: each request's send lateness in µs (how long after its scheduled time it
    /// left), one line per phout line in the same order; phout itself stays Tank's 12 fields.
    /// </summary>
    public const string LatenessFile = "lateness.log";

    /// <summary>Formats one line into <paramref name="buffer"/>; returns the bytes written.</summary>
    public static int Format(in PhoutRecord r, Span<byte> buffer)
    {
        var pos = 0;
        var ms = r.StartUnixUs / 1000;
        Number(ms / 1000, buffer, ref pos);
        buffer[pos++] = (byte)'.';
        var frac = ms % 1000;
        buffer[pos++] = (byte)('0' + frac / 100);
        buffer[pos++] = (byte)('0' + frac / 10 % 10);
        buffer[pos++] = (byte)('0' + frac % 10);
        buffer[pos++] = (byte)'\t';
        pos += Encoding.UTF8.GetBytes(r.Tag, buffer[pos..]);
        foreach (var value in (ReadOnlySpan<long>)[r.IntervalRealUs, r.ConnectUs, r.SendUs, r.LatencyUs, r.ReceiveUs,
                     r.IntervalEventUs, r.SizeOut, r.SizeIn, r.NetCode, r.ProtoCode])
        {
            buffer[pos++] = (byte)'\t';
            Number(value, buffer, ref pos);
        }
        buffer[pos++] = (byte)'\n';
        return pos;
    }

    public static string Format(in PhoutRecord r)
    {
        Span<byte> buffer = stackalloc byte[MaxLineBytes];
        return Encoding.UTF8.GetString(buffer[..Format(r, buffer)]);
    }

    private static void Number(long value, Span<byte> buffer, ref int pos)
    {
        Utf8Formatter.TryFormat(value, buffer[pos..], out var written);
        pos += written;
    }
}
