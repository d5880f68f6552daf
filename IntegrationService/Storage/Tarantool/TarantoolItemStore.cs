using IntegrationService.Items;
using Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// Item links in items_{engine}, read and written by the stored functions of init.lua
/// (item_locations_get / item_locations_set) so each call is one round trip and a write is atomic.
/// </summary>
public sealed class TarantoolItemStore(TarantoolConnection connection, string engine) : IItemStore
{
    public async Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Call, (engine, itemId), WriteGet, cancellationToken);
        return ReadLocations(response);
    }

    /// <summary>item_locations_get's answer: nothing, or one array of location tuples {id, text, x, y}.</summary>
    internal static List<Location> ReadLocations(IprotoResponse response)
    {
        var reader = response.ReadData();
        if (reader.ReadArrayHeader() == 0) return [];
        var count = ReadLuaArrayHeader(ref reader);
        var locations = new List<Location>(count);
        for (var i = 0; i < count; i++)
        {
            var fields = reader.ReadArrayHeader();
            var location = new Location(reader.ReadInt64(), reader.ReadString() ?? "", new Coordinates(reader.ReadDouble(), reader.ReadDouble()));
            for (var f = 4; f < fields; f++) reader.Skip();
            locations.Add(location);
        }
        return locations;
    }

    public async Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Call, (engine, itemId, locationIds), WriteSet, cancellationToken);
        var reader = response.ReadData();
        if (reader.ReadArrayHeader() == 0) return;
        var count = ReadLuaArrayHeader(ref reader);
        if (count == 0) return;
        var missing = new long[count];
        for (var i = 0; i < count; i++) missing[i] = reader.ReadInt64();
        throw new UnknownLocationsException(missing);
    }

    /// <summary>Lua encodes an empty table as an array or, depending on its history, an empty map.</summary>
    private static int ReadLuaArrayHeader(ref MessagePackReader reader)
    {
        if (reader.NextMessagePackType != MessagePackType.Map) return reader.ReadArrayHeader();
        var entries = reader.ReadMapHeader();
        return entries == 0 ? 0 : throw new IprotoException("Expected an array of tuples, got a map.");
    }

    private static void WriteGet(ref MessagePackWriter writer, (string Engine, long ItemId) call)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, "item_locations_get");
        writer.WriteArrayHeader(2);
        writer.Write(call.Engine);
        writer.Write(call.ItemId);
    }

    private static void WriteSet(ref MessagePackWriter writer, (string Engine, long ItemId, IReadOnlyList<long> Ids) call)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, "item_locations_set");
        writer.WriteArrayHeader(3);
        writer.Write(call.Engine);
        writer.Write(call.ItemId);
        writer.WriteArrayHeader(call.Ids.Count);
        foreach (var id in call.Ids) writer.Write(id);
    }
}
