using System.Buffers;
using System.Text;
using IntegrationService.Items;
using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using MessagePack;
using static Tarantool.Iproto.Tests.MessagePackBytes;

namespace IntegrationService.Tests.Tarantool;

/// <summary>The explicit request bodies and answers of the Tarantool stores, without a server.</summary>
public sealed class TarantoolCodecTests
{
    [Fact]
    public void LocationBatchWritesTuplesAndLocationsReadBack()
    {
        Location[] locations =
        [
            new(1, "first", new Coordinates(53.4747, -14.2082)),
            new(2, "второй", new Coordinates(0, 180)),
            new(3, "third", new Coordinates(-90, 0.5)),
        ];
        var batch = Write((ref MessagePackWriter w) => new LocationBatch(locations, 1, 2).Write(ref w));

        // The answer of item_locations_get carries the same tuples: {data: [[tuple, …]]}.
        using var answer = Answer((ref MessagePackWriter w) =>
        {
            w.WriteArrayHeader(1);
            w.WriteRaw(batch);
        });

        Assert.Equal(locations[1..], TarantoolItemStore.ReadLocations(answer));
    }

    [Fact]
    public void LocationsOfAnItemWithoutAnyAreEmptyWhateverLuaSends()
    {
        using var none = Answer((ref MessagePackWriter w) => w.WriteArrayHeader(0));
        using var emptyMap = Answer((ref MessagePackWriter w) =>
        {
            w.WriteArrayHeader(1);
            w.WriteMapHeader(0); // Lua's empty table, depending on its history
        });

        Assert.Empty(TarantoolItemStore.ReadLocations(none));
        Assert.Empty(TarantoolItemStore.ReadLocations(emptyMap));
    }

    [Fact]
    public void ItemBatchWritesItemIdAndLocationIds()
    {
        ItemLinks[] items = [new(10, [1, 2, 300]), new(11, []), new(12, [5])];

        var bytes = Write((ref MessagePackWriter w) => new ItemBatch(items, 0, 2).Write(ref w));

        var reader = new MessagePackReader(bytes);
        Assert.Equal(2, reader.ReadArrayHeader());
        Assert.Equal(2, reader.ReadArrayHeader());
        Assert.Equal(10, reader.ReadInt64());
        Assert.Equal(3, reader.ReadArrayHeader());
        Assert.Equal([1L, 2L, 300L], [reader.ReadInt64(), reader.ReadInt64(), reader.ReadInt64()]);
        Assert.Equal(2, reader.ReadArrayHeader());
        Assert.Equal(11, reader.ReadInt64());
        Assert.Equal(0, reader.ReadArrayHeader());
        Assert.True(reader.End);
    }

    [Fact]
    public void QueueMessagesGoAsUtf8StringsAndComeBackAsTheSameBytes()
    {
        var message = Encoding.UTF8.GetBytes("{\"text\":\"сообщение\"}");
        var put = Write((ref MessagePackWriter w) => TarantoolQueueStore.WritePut(ref w, ("memtx", message)));

        var reader = new MessagePackReader(put);
        Assert.Equal(2, reader.ReadMapHeader());
        Assert.Equal(IprotoKey.FunctionName, reader.ReadInt32());
        Assert.Equal("queue_put", reader.ReadString());
        Assert.Equal(IprotoKey.Tuple, reader.ReadInt32());
        Assert.Equal(2, reader.ReadArrayHeader());
        Assert.Equal("memtx", reader.ReadString());
        Assert.Equal(MessagePackType.String, reader.NextMessagePackType);
        Assert.Equal(message, reader.ReadStringSequence()!.Value.ToArray());

        using var taken = Answer((ref MessagePackWriter w) =>
        {
            w.WriteArrayHeader(1);
            w.WriteArrayHeader(2);
            w.Write(77);
            w.WriteString(message);
        });
        var read = TarantoolQueueStore.ReadTaken(taken);
        Assert.Equal(77, read!.Id);
        Assert.Equal(message, read.Body);
    }

    [Fact]
    public void AnEmptyQueueAnswersNothingOrNil()
    {
        using var nothing = Answer((ref MessagePackWriter w) => w.WriteArrayHeader(0));
        using var nil = Answer((ref MessagePackWriter w) =>
        {
            w.WriteArrayHeader(1);
            w.WriteNil();
        });

        Assert.Null(TarantoolQueueStore.ReadTaken(nothing));
        Assert.Null(TarantoolQueueStore.ReadTaken(nil));
    }

    /// <summary>A successful answer {IPROTO_DATA: …}, in a pooled buffer as the connection makes them.</summary>
    internal static IprotoResponse Answer(WriteAction writeData) => Response(Write((ref MessagePackWriter w) =>
    {
        w.WriteMapHeader(1);
        w.Write(IprotoKey.Data);
        writeData(ref w);
    }));
}
