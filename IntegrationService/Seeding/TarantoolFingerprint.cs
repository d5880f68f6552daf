using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using MessagePack;
using Microsoft.Extensions.Options;

namespace IntegrationService.Seeding;

/// <summary>
/// Tarantool's fingerprint, per engine: the tuples of each data space (<c>box.space.X:count</c>,
/// as net.box counts) and an MD5 of a sample (the first 1000 items and authors by id and every
/// 100th location, as the server encodes them), through the service's own connection. Selects
/// and counts only.
/// </summary>
internal static class TarantoolFingerprint
{
    private static readonly string[] Spaces = ["authors", "locations", "items", "queue", "kv"];

    /// <summary>vinyl counts by scanning: a large space takes seconds.</summary>
    private static readonly TimeSpan CountTimeout = TimeSpan.FromSeconds(50);

    public static async Task<ServerFingerprint> ReadAsync(string server, TarantoolConnection connection, IOptions<TarantoolOptions> options, CancellationToken cancellationToken)
    {
        var endpoint = $"{options.Value.Host}:{options.Value.Port}";
        if (!await PortProbe.IsOpenAsync(options.Value.Host, options.Value.Port, cancellationToken)) return ServerFingerprint.Down(server, endpoint);
        if (!await connection.TryConnectAsync(cancellationToken)) return ServerFingerprint.Failed(server, endpoint, "cannot connect (see the log above)");
        var fields = new List<KeyValuePair<string, object?>>();
        foreach (var engine in TarantoolEngines.All)
        {
            foreach (var space in Spaces) fields.Add(new($"{engine}.{space}", await CountAsync(connection, $"{space}_{engine}", cancellationToken)));
            fields.Add(new($"{engine}.sample", await SampleAsync(connection, engine, cancellationToken)));
        }
        return ServerFingerprint.Of(server, endpoint, fields);
    }

    private static async Task<long?> CountAsync(TarantoolConnection connection, string space, CancellationToken cancellationToken)
    {
        if (await SpaceIdAsync(connection, space, cancellationToken) is null) return null;
        using var response = await connection.SendAsync(IprotoCode.Call, $"box.space.{space}:count", WriteCall, CountTimeout, cancellationToken);
        var reader = response.ReadData();
        reader.ReadArrayHeader();
        return reader.ReadInt64();
    }

    private static async Task<string> SampleAsync(TarantoolConnection connection, string engine, CancellationToken cancellationToken)
    {
        using var digest = new FingerprintDigest();
        foreach (var space in (string[])["items", "authors"])
        {
            if (await SpaceIdAsync(connection, $"{space}_{engine}", cancellationToken) is not { } id) continue;
            using var page = await connection.SendAsync(IprotoCode.Select, (id, 0, 1000), IprotoBody.WriteSelectPage, cancellationToken);
            digest.Add(page.Body.Span);
        }
        if (await SpaceIdAsync(connection, $"locations_{engine}", cancellationToken) is { } locations)
        {
            // One select per sampled id, all in flight at once on the pipelined connection.
            var responses = await Task.WhenAll(Enumerable.Range(1, 1000)
                .Select(i => connection.SendAsync(IprotoCode.Select, (locations, i * 100L), IprotoBody.WriteSelectById, cancellationToken)));
            foreach (var response in responses)
            {
                digest.Add(response.Body.Span);
                response.Dispose();
            }
        }
        return digest.Hex();
    }

    private static async Task<uint?> SpaceIdAsync(TarantoolConnection connection, string space, CancellationToken cancellationToken)
    {
        try
        {
            return await connection.GetSpaceIdAsync(space, cancellationToken);
        }
        catch (InvalidOperationException)
        {
            return null; // no such space: printed as "none"
        }
    }

    private static void WriteCall(ref MessagePackWriter writer, string function)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, function);
        writer.WriteArrayHeader(0);
    }
}
