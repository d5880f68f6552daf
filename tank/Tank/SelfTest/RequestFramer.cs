using System.Buffers.Text;

namespace Tank.SelfTest;

/// <summary>
/// Counts complete HTTP requests in a byte stream: headers up to the blank line, then
/// Content-Length body bytes. Scans spans so the trivial server costs next to nothing.
/// </summary>
internal sealed class RequestFramer
{
    private readonly byte[] _head = new byte[16 * 1024];
    private int _headLength;
    private long _bodyLeft;

    public int Feed(ReadOnlySpan<byte> data)
    {
        var complete = 0;
        while (data.Length > 0)
        {
            if (_bodyLeft > 0)
            {
                var take = (int)Math.Min(_bodyLeft, data.Length);
                data = data[take..];
                _bodyLeft -= take;
                if (_bodyLeft == 0) complete++;
                continue;
            }
            var take2 = Math.Min(data.Length, _head.Length - _headLength);
            data[..take2].CopyTo(_head.AsSpan(_headLength));
            var searchFrom = Math.Max(0, _headLength - 3);
            _headLength += take2;
            var end = _head.AsSpan(searchFrom, _headLength - searchFrom).IndexOf("\r\n\r\n"u8);
            if (end < 0)
            {
                if (_headLength == _head.Length) _headLength = 0; // oversized header: drop it
                data = data[take2..];
                continue;
            }
            var headEnd = searchFrom + end + 4;
            var unused = _headLength - headEnd;               // bytes copied past the blank line
            data = data[(take2 - unused)..];
            _bodyLeft = ContentLength(_head.AsSpan(0, headEnd));
            _headLength = 0;
            if (_bodyLeft == 0) complete++;
        }
        return complete;
    }

    private static long ContentLength(ReadOnlySpan<byte> head)
    {
        var at = head.IndexOf("\r\nContent-Length:"u8);
        if (at < 0) return 0;
        var value = head[(at + 17)..];
        value = value[..value.IndexOf((byte)'\r')].Trim((byte)' ');
        return Utf8Parser.TryParse(value, out long length, out _) ? length : 0;
    }
}
