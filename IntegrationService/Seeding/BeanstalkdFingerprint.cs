using System.Net.Sockets;
using System.Text;
using IntegrationService.Storage.Beanstalkd;
using Microsoft.Extensions.Options;

namespace IntegrationService.Seeding;

/// <summary>
/// beanstalkd's fingerprint: the job counts of its <c>stats</c> (ready, reserved, delayed, buried,
/// and every job ever put since it started). The service's client has no stats command, so this
/// is one plain exchange of <c>stats</c> on a socket of its own, under the caller's deadline.
/// </summary>
internal static class BeanstalkdFingerprint
{
    private static readonly string[] Fields = ["current-jobs-ready", "current-jobs-reserved", "current-jobs-delayed", "current-jobs-buried", "total-jobs"];

    public static async Task<ServerFingerprint> ReadAsync(string server, IOptions<BeanstalkdOptions> options, CancellationToken cancellationToken)
    {
        var (host, port) = (options.Value.Host, options.Value.Port);
        var endpoint = $"{host}:{port}";
        if (!await PortProbe.IsOpenAsync(host, port, cancellationToken)) return ServerFingerprint.Down(server, endpoint);
        using var client = new TcpClient();
        await client.ConnectAsync(host, port, cancellationToken);
        await using var stream = client.GetStream();
        await stream.WriteAsync("stats\r\n"u8.ToArray(), cancellationToken);
        var stats = Parse(await ReadReplyAsync(stream, cancellationToken));
        return ServerFingerprint.Of(server, endpoint, Fields.Select(f => new KeyValuePair<string, object?>(f, stats.GetValueOrDefault(f))));
    }

    /// <summary>The YAML of a stats reply (<c>OK &lt;bytes&gt;\r\n---\nkey: value\n…\r\n</c>), as key → value.</summary>
    internal static Dictionary<string, string> Parse(string reply)
    {
        if (!reply.StartsWith("OK ", StringComparison.Ordinal)) throw new InvalidOperationException($"beanstalkd answered stats with '{reply.Split('\n')[0].Trim()}'");
        return reply.Split('\n').Skip(1)
            .Select(l => l.Trim().Split(": ", 2))
            .Where(kv => kv.Length == 2)
            .ToDictionary(kv => kv[0], kv => kv[1]);
    }

    private static async Task<string> ReadReplyAsync(NetworkStream stream, CancellationToken cancellationToken)
    {
        var buffer = new byte[64 * 1024];
        var length = 0;
        while (true)
        {
            var read = await stream.ReadAsync(buffer.AsMemory(length), cancellationToken);
            if (read == 0) throw new IOException("beanstalkd closed the connection");
            length += read;
            var text = Encoding.ASCII.GetString(buffer, 0, length);
            var header = text.IndexOf("\r\n", StringComparison.Ordinal);
            if (header < 0) continue;
            if (!text.StartsWith("OK ", StringComparison.Ordinal)) return text;
            var bytes = int.Parse(text.AsSpan(3, header - 3), System.Globalization.CultureInfo.InvariantCulture);
            if (length >= header + 2 + bytes + 2) return text[..(header + 2 + bytes)];
            if (length == buffer.Length) throw new IOException("beanstalkd's stats reply is larger than expected");
        }
    }
}
