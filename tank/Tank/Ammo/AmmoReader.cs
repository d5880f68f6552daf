using System.Text;
using Harness.CommandLine;

namespace Tank.Ammo;

/// <summary>
/// Reads phantom, uri and uripost ammo into ready-to-send bytes. Strict: a size that does not
/// match the request is an error naming the line and byte offset, never a silently shifted stream.
/// </summary>
public static class AmmoReader
{
    public static List<AmmoRequest> Read(string path, AmmoFormat format, string httpVersion = "1.1")
    {
        if (!File.Exists(path)) throw new InputException(path, "file", "ammo file not found");
        return Parse(File.ReadAllBytes(path), path, format, httpVersion);
    }

    public static List<AmmoRequest> Parse(byte[] data, string name, AmmoFormat format, string httpVersion = "1.1")
    {
        var cursor = new AmmoCursor(data, name);
        var requests = format switch
        {
            AmmoFormat.Phantom => ReadPhantom(cursor),
            AmmoFormat.Uri => ReadUri(cursor, httpVersion),
            _ => ReadUriPost(cursor, httpVersion),
        };
        if (requests.Count == 0) throw new InputException(name, "byte offset 0", "No ammo! Cover me! (the file holds no requests)");
        return requests;
    }

    private static List<AmmoRequest> ReadPhantom(AmmoCursor cursor)
    {
        var requests = new List<AmmoRequest>();
        while (cursor.SkipBlankLines())
        {
            var headerAt = cursor.Position;
            var header = cursor.ReadLine();
            var space = header.IndexOf(' ');
            var sizeText = space < 0 ? header : header[..space];
            var tag = space < 0 ? "" : header[(space + 1)..].Trim();
            if (!int.TryParse(sizeText, out var size) || size <= 0)
                throw cursor.Error(headerAt, $"Error while reading ammo file: expected '<size> [tag]' but found '{Shorten(header)}'");
            var body = cursor.ReadExactly(size);
            HttpRequestCheck.Validate(body, cursor, headerAt, size);
            if (!cursor.AtEnd && !cursor.TryConsumeNewline())
                throw cursor.Error(cursor.Position, $"size {size} does not match the request that starts at line {cursor.LineAt(headerAt) + 1}: no newline right after its last byte");
            requests.Add(new AmmoRequest(body, tag));
        }
        return requests;
    }

    private static List<AmmoRequest> ReadUri(AmmoCursor cursor, string httpVersion) =>
        ReadRequestLines(cursor, (line, lineAt, headers) =>
        {
            var parts = line.Split(' ', 2, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            if (!parts[0].StartsWith('/') && !parts[0].StartsWith("http", StringComparison.Ordinal))
                throw cursor.Error(lineAt, $"Error while reading ammo file: expected a URI or a [Header: value] line, found '{Shorten(line)}'");
            var spec = new HttpRequestSpec("GET", parts[0], [.. headers], []);
            return new AmmoRequest(spec.Encode(httpVersion), parts.Length > 1 ? parts[1] : "");
        });

    private static List<AmmoRequest> ReadUriPost(AmmoCursor cursor, string httpVersion) =>
        ReadRequestLines(cursor, (line, lineAt, headers) =>
        {
            var parts = line.Split(' ', 3, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            if (parts.Length < 2 || !int.TryParse(parts[0], out var size) || size < 0)
                throw cursor.Error(lineAt, $"Error while reading ammo file: expected '<bodysize> <uri> [tag]', found '{Shorten(line)}'");
            var body = cursor.ReadExactly(size);
            if (!cursor.AtEnd && !cursor.TryConsumeNewline())
                throw cursor.Error(cursor.Position, $"body size {size} does not match the body that starts at line {cursor.LineAt(lineAt) + 2}: no newline right after its last byte");
            var spec = new HttpRequestSpec("POST", parts[1], [.. headers], body);
            return new AmmoRequest(spec.Encode(httpVersion), parts.Length > 2 ? parts[2] : "");
        });

    // The uri and uripost formats: each non-blank line is a [Header: value] for the requests below it
    // or the start of a request, which readRequest turns into one (reading its body, if any, from the cursor).
    private static List<AmmoRequest> ReadRequestLines(AmmoCursor cursor,
        Func<string, int, List<KeyValuePair<string, string>>, AmmoRequest> readRequest)
    {
        var requests = new List<AmmoRequest>();
        var headers = new List<KeyValuePair<string, string>>();
        while (cursor.SkipBlankLines())
        {
            var lineAt = cursor.Position;
            var line = cursor.ReadLine().Trim();
            if (TryHeader(line, headers, cursor, lineAt)) continue;
            requests.Add(readRequest(line, lineAt, headers));
        }
        return requests;
    }

    // "[Name: value]" sets a header for the requests below it; a later one with the same name overrides.
    private static bool TryHeader(string line, List<KeyValuePair<string, string>> headers, AmmoCursor cursor, int lineAt)
    {
        if (!line.StartsWith('[')) return false;
        var colon = line.IndexOf(':');
        if (!line.EndsWith(']') || colon < 0)
            throw cursor.Error(lineAt, $"Error while reading ammo file: a header line must look like [Name: value], found '{Shorten(line)}'");
        var name = line[1..colon].Trim();
        headers.RemoveAll(h => h.Key.Equals(name, StringComparison.OrdinalIgnoreCase));
        headers.Add(new(name, line[(colon + 1)..^1].Trim()));
        return true;
    }

    private static string Shorten(string text) => text.Length <= 60 ? text : text[..60] + "…";

    internal static string Ascii(ReadOnlySpan<byte> bytes) => Encoding.UTF8.GetString(bytes);
}
