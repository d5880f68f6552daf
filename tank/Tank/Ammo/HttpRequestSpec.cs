using System.Text;

namespace Tank.Ammo;

/// <summary>
/// A request before encoding. Encodes the way Tank builds uri/uripost requests: request line,
/// headers de-duplicated and sorted bytewise, Content-Length when there is a body, blank line, body.
/// </summary>
public sealed record HttpRequestSpec(string Method, string Uri, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[] Body)
{
    public byte[] Encode(string httpVersion = "1.1")
    {
        var headers = Headers
            .GroupBy(h => h.Key, StringComparer.OrdinalIgnoreCase)
            .Select(g => $"{g.Key}: {g.Last().Value}")
            .Order(StringComparer.Ordinal)
            .ToList();
        if (Body.Length > 0) headers.Add($"Content-Length: {Body.Length}");
        var head = $"{Method} {Uri} HTTP/{httpVersion}\r\n{string.Concat(headers.Select(h => h + "\r\n"))}\r\n";
        return [.. Encoding.UTF8.GetBytes(head), .. Body];
    }
}
