using System.Buffers;
using IntegrationService.Kv;
using Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// Key-value pairs in the kv_{engine} space (init.lua): a tuple {key, value} with the value as
/// MessagePack bin. Every call is one IPROTO request on the primary key: SELECT, REPLACE, DELETE
/// (vinyl's blind DELETE suits the API, which answers 202 whether or not the key existed).
/// </summary>
public sealed class TarantoolKvStore(TarantoolConnection connection, string engine) : IKvStore
{
    private readonly string _space = "kv_" + engine;

    public async Task<byte[]?> GetAsync(string key, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Select, (spaceId, key), IprotoBody.WriteSelectByKey, cancellationToken);
        var reader = response.ReadData();
        if (reader.ReadArrayHeader() == 0) return null;
        var fields = reader.ReadArrayHeader();
        reader.Skip(); // the key
        var value = reader.ReadBytes() is { } bytes ? bytes.ToArray() : [];
        for (var f = 2; f < fields; f++) reader.Skip();
        return value;
    }

    public async Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Replace, (spaceId, key, value), WriteReplace, cancellationToken);
    }

    public async Task DeleteAsync(string key, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Delete, (spaceId, key), IprotoBody.WriteDeleteByKey, cancellationToken);
    }

    private static void WriteReplace(ref MessagePackWriter writer, (uint SpaceId, string Key, ReadOnlyMemory<byte> Value) request)
    {
        IprotoBody.WriteTupleHeader(ref writer, request.SpaceId);
        writer.WriteArrayHeader(2);
        writer.Write(request.Key);
        writer.Write(request.Value.Span); // bin: the bytes as they are
    }
}
