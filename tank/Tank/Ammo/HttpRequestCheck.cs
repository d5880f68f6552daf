using System.Text;

namespace Tank.Ammo;

/// <summary>
/// Sanity checks on a phantom record so a wrong size is caught at load time instead of
/// as a desynchronised stream of garbage requests: it must be a request line, headers, blank line,
/// and exactly Content-Length body bytes.
/// </summary>
internal static class HttpRequestCheck
{
    private static readonly byte[] HeaderEnd = "\r\n\r\n"u8.ToArray();

    public static void Validate(byte[] request, AmmoCursor cursor, int headerAt, int size)
    {
        var firstSpace = Array.IndexOf(request, (byte)' ');
        if (firstSpace <= 0 || !request.AsSpan(0, firstSpace).ToArray().All(b => b is >= (byte)'A' and <= (byte)'Z'))
            throw cursor.Error(headerAt, $"the {size}-byte request does not start with an HTTP method: size does not match or the record is not phantom ammo");
        var end = request.AsSpan().IndexOf(HeaderEnd);
        if (end < 0)
            throw cursor.Error(headerAt, $"size {size} does not match the request: its bytes hold no blank line ending the headers");
        var bodyLength = request.Length - end - HeaderEnd.Length;
        var declared = ContentLength(Encoding.ASCII.GetString(request, 0, end));
        if ((declared ?? 0) != bodyLength)
            throw cursor.Error(headerAt, $"size {size} does not match the request: it holds {bodyLength} body bytes but Content-Length is {declared ?? 0}");
    }

    private static int? ContentLength(string head)
    {
        foreach (var line in head.Split("\r\n"))
        {
            var colon = line.IndexOf(':');
            if (colon > 0 && line[..colon].Trim().Equals("Content-Length", StringComparison.OrdinalIgnoreCase)
                && int.TryParse(line[(colon + 1)..].Trim(), out var value))
                return value;
        }
        return null;
    }
}
