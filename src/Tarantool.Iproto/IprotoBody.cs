using MessagePack;

namespace Tarantool.Iproto;

/// <summary>Writers of the request bodies the stores send (each a map of IprotoKey → value).</summary>
public static class IprotoBody
{
    /// <summary>SELECT by primary key: {space, index 0, iterator EQ, offset 0, limit 1, key [id]}.</summary>
    public static void WriteSelectById(ref MessagePackWriter writer, (uint SpaceId, long Id) request)
    {
        WriteSelectHeader(ref writer, request.SpaceId, IprotoIterator.Eq, offset: 0, limit: 1);
        writer.WriteArrayHeader(1);
        writer.Write(request.Id);
    }

    /// <summary>SELECT by a string primary key: {space, index 0, iterator EQ, offset 0, limit 1, key [key]}.</summary>
    public static void WriteSelectByKey(ref MessagePackWriter writer, (uint SpaceId, string Key) request)
    {
        WriteSelectHeader(ref writer, request.SpaceId, IprotoIterator.Eq, offset: 0, limit: 1);
        writer.WriteArrayHeader(1);
        writer.Write(request.Key);
    }

    /// <summary>DELETE by a string primary key: {space, index 0, key [key]}.</summary>
    public static void WriteDeleteByKey(ref MessagePackWriter writer, (uint SpaceId, string Key) request)
    {
        writer.WriteMapHeader(3);
        writer.Write(IprotoKey.SpaceId);
        writer.Write(request.SpaceId);
        writer.Write(IprotoKey.IndexId);
        writer.Write(0);
        writer.Write(IprotoKey.Key);
        writer.WriteArrayHeader(1);
        writer.Write(request.Key);
    }

    /// <summary>SELECT a page of the primary index in key order.</summary>
    public static void WriteSelectPage(ref MessagePackWriter writer, (uint SpaceId, int Offset, int Limit) request)
    {
        WriteSelectHeader(ref writer, request.SpaceId, IprotoIterator.All, (uint)request.Offset, (uint)request.Limit);
        writer.WriteArrayHeader(0);
    }

    /// <summary>SELECT every tuple of a (small) space.</summary>
    public static void WriteSelectAll(ref MessagePackWriter writer, uint spaceId)
    {
        WriteSelectHeader(ref writer, spaceId, IprotoIterator.All, offset: 0, limit: uint.MaxValue);
        writer.WriteArrayHeader(0);
    }

    /// <summary>DELETE by primary key.</summary>
    public static void WriteDeleteById(ref MessagePackWriter writer, (uint SpaceId, long Id) request) =>
        WriteKeyHeader(ref writer, request.SpaceId, request.Id, extraEntries: 0);

    /// <summary>
    /// A body map addressing one tuple by primary key: {space, index 0, key [id]}, followed by
    /// <paramref name="extraEntries"/> entries the caller writes (UPDATE adds its operations).
    /// </summary>
    public static void WriteKeyHeader(ref MessagePackWriter writer, uint spaceId, long id, int extraEntries)
    {
        writer.WriteMapHeader(3 + extraEntries);
        writer.Write(IprotoKey.SpaceId);
        writer.Write(spaceId);
        writer.Write(IprotoKey.IndexId);
        writer.Write(0);
        writer.Write(IprotoKey.Key);
        writer.WriteArrayHeader(1);
        writer.Write(id);
    }

    /// <summary>INSERT/REPLACE: {space, tuple}; the caller writes the tuple.</summary>
    public static void WriteTupleHeader(ref MessagePackWriter writer, uint spaceId)
    {
        writer.WriteMapHeader(2);
        writer.Write(IprotoKey.SpaceId);
        writer.Write(spaceId);
        writer.Write(IprotoKey.Tuple);
    }

    /// <summary>CALL/EVAL: {name or expression, arguments}; the caller writes the arguments array.</summary>
    public static void WriteCallHeader(ref MessagePackWriter writer, int nameKey, string nameOrExpression)
    {
        writer.WriteMapHeader(2);
        writer.Write(nameKey);
        writer.Write(nameOrExpression);
        writer.Write(IprotoKey.Tuple);
    }

    private static void WriteSelectHeader(ref MessagePackWriter writer, uint spaceId, IprotoIterator iterator, uint offset, uint limit)
    {
        writer.WriteMapHeader(6);
        writer.Write(IprotoKey.SpaceId);
        writer.Write(spaceId);
        writer.Write(IprotoKey.IndexId);
        writer.Write(0);
        writer.Write(IprotoKey.Iterator);
        writer.Write((int)iterator);
        writer.Write(IprotoKey.Offset);
        writer.Write(offset);
        writer.Write(IprotoKey.Limit);
        writer.Write(limit);
        writer.Write(IprotoKey.Key);
    }
}
