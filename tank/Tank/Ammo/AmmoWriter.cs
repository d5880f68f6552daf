using System.Text;
using Harness.CommandLine;

namespace Tank.Ammo;

/// <summary>Writes ammo in Tank's formats. Sizes are byte counts of the UTF-8 bytes written.</summary>
public static class AmmoWriter
{
    public static void Write(Stream output, AmmoFormat format, IEnumerable<(HttpRequestSpec Spec, string Tag)> requests)
    {
        switch (format)
        {
            case AmmoFormat.Phantom: WritePhantom(output, requests); break;
            case AmmoFormat.Uri: WriteUri(output, requests); break;
            default: WriteUriPost(output, requests); break;
        }
    }

    // "<size> <tag>\n" + exactly size bytes + "\n" (the trailing LF is not counted).
    private static void WritePhantom(Stream output, IEnumerable<(HttpRequestSpec Spec, string Tag)> requests)
    {
        foreach (var (spec, tag) in requests)
        {
            var bytes = spec.Encode();
            output.Write(Encoding.ASCII.GetBytes($"{bytes.Length} {tag}\n"));
            output.Write(bytes);
            output.WriteByte((byte)'\n');
        }
    }

    // Header lines apply to every URI below them, so they are written only when they change.
    private static void WriteUri(Stream output, IEnumerable<(HttpRequestSpec Spec, string Tag)> requests)
    {
        var current = new HeaderBlock();
        foreach (var (spec, tag) in requests)
        {
            if (spec.Method != "GET" || spec.Body.Length > 0)
                throw new InputException($"uri ammo can only hold GET requests without a body, not {spec.Method} {spec.Uri}");
            current.WriteChanges(output, spec.Headers);
            output.Write(Encoding.UTF8.GetBytes($"{spec.Uri} {tag}\n"));
        }
    }

    // "<bodysize> <uri> <tag>\n" + body; Tank sends these as POST with Content-Length.
    private static void WriteUriPost(Stream output, IEnumerable<(HttpRequestSpec Spec, string Tag)> requests)
    {
        var current = new HeaderBlock();
        foreach (var (spec, tag) in requests)
        {
            if (spec.Method != "POST")
                throw new InputException($"uripost ammo can only hold POST requests, not {spec.Method} {spec.Uri}");
            current.WriteChanges(output, spec.Headers);
            output.Write(Encoding.UTF8.GetBytes($"{spec.Body.Length} {spec.Uri} {tag}\n"));
            output.Write(spec.Body);
            output.WriteByte((byte)'\n');
        }
    }

    private sealed class HeaderBlock
    {
        private readonly Dictionary<string, string> _written = new(StringComparer.OrdinalIgnoreCase);

        public void WriteChanges(Stream output, IReadOnlyList<KeyValuePair<string, string>> headers)
        {
            if (headers.Count != _written.Count)
                foreach (var name in _written.Keys.Where(k => headers.All(h => !h.Key.Equals(k, StringComparison.OrdinalIgnoreCase))))
                    throw new InputException($"uri/uripost ammo cannot drop header '{name}' once set");
            foreach (var (name, value) in headers)
            {
                if (_written.TryGetValue(name, out var old) && old == value) continue;
                _written[name] = value;
                output.Write(Encoding.UTF8.GetBytes($"[{name}: {value}]\n"));
            }
        }
    }
}
