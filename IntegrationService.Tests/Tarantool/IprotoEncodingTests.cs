using System.Buffers;
using System.Text;
using IntegrationService.Items;
using IntegrationService.Storage.Tarantool;
using IntegrationService.Storage.Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Tests.Tarantool;

/// <summary>IPROTO frames and the explicit bodies and answers of the stores, without a server.</summary>
public sealed class IprotoEncodingTests
{
    [Fact]
    public void PingFrameMatchesKnownBytes()
    {
        using var output = new PooledBufferWriter();

        IprotoFrame.Write(output, IprotoCode.Ping, sync: 5, 0, null);

        // uint32 length 6, then {0x00: 0x40, 0x01: 5} and an empty body map.
        Assert.Equal([0xce, 0, 0, 0, 6, 0x82, 0x00, 0x40, 0x01, 0x05, 0x80], output.WrittenSpan.ToArray());
    }

    [Fact]
    public void SelectByIdFrameMatchesKnownBytes()
    {
        using var output = new PooledBufferWriter();
        output.GetSpan(3)[..3].Fill(0xff); // frames are appended behind what is queued
        output.Advance(3);

        IprotoFrame.Write(output, IprotoCode.Select, sync: 300, (512u, 7L), IprotoBody.WriteSelectById);

        byte[] expected =
        [
            0xff, 0xff, 0xff,
            0xce, 0, 0, 0, 23,
            0x82, 0x00, 0x01, 0x01, 0xcd, 0x01, 0x2c,              // {type: SELECT, sync: 300}
            0x86, 0x10, 0xcd, 0x02, 0x00, 0x11, 0x00, 0x14, 0x00,  // {space: 512, index: 0, iterator: EQ,
            0x13, 0x00, 0x12, 0x01, 0x20, 0x91, 0x07,              //  offset: 0, limit: 1, key: [7]}
        ];
        Assert.Equal(expected, output.WrittenSpan.ToArray());
    }

    [Fact]
    public void NonNegativeIntegersUseUnsignedFamiliesForTarantoolUnsignedFields()
    {
        Assert.Equal([0xcc, 200], Write((ref MessagePackWriter w) => w.Write(200L)));
        Assert.Equal([0xcd, 0x01, 0x00], Write((ref MessagePackWriter w) => w.Write(256L)));
        Assert.Equal([0xe0], Write((ref MessagePackWriter w) => w.Write(-32L)));
        Assert.Equal([0xd0, 0xdf], Write((ref MessagePackWriter w) => w.Write(-33L)));
    }

    [Fact]
    public void AnswerFramesAreSplitAndHandedOverWhole()
    {
        var body = Write((ref MessagePackWriter w) =>
        {
            w.WriteMapHeader(1);
            w.Write(IprotoKey.Data);
            w.WriteArrayHeader(1);
            w.Write(42);
        });
        var frame = Frame(code: 0, sync: 70_000, body);
        var twoFrames = frame.Concat(frame).ToArray();
        var seen = new List<(ulong Sync, int Code, byte[] Body)>();
        IprotoFrame.Handler handler = (sync, code, b) => seen.Add((sync, code, b.ToArray()));

        Assert.Equal(frame.Length, IprotoFrame.TryDispatch(twoFrames.AsMemory(0, frame.Length - 1), handler, out _));
        Assert.Equal(0, IprotoFrame.TryDispatch(twoFrames, handler, out var consumed));
        Assert.Equal(0, IprotoFrame.TryDispatch(twoFrames.AsMemory(consumed), handler, out _));

        Assert.Equal(frame.Length, consumed);
        Assert.Equal(2, seen.Count);
        Assert.Equal((70_000UL, 0), (seen[0].Sync, seen[0].Code));
        Assert.Equal(body, seen[1].Body);
    }

    [Fact]
    public void ErrorAnswersCarryCodeAndMessage()
    {
        var body = Write((ref MessagePackWriter w) =>
        {
            w.WriteMapHeader(1);
            w.Write(IprotoKey.Error);
            w.Write("Duplicate key exists");
        });
        var code = 0;
        var message = "";

        IprotoFrame.TryDispatch(Frame(code: 0x8003, sync: 1, body), (_, c, b) => (code, message) = (c, IprotoFrame.ReadErrorMessage(b)), out _);

        Assert.Equal(0x8003, code);
        Assert.Equal("Duplicate key exists", message);
        Assert.Equal("(no message)", IprotoFrame.ReadErrorMessage(ReadOnlyMemory<byte>.Empty));
    }

    [Fact]
    public void GreetingGivesVersionAndSalt()
    {
        var salt = Enumerable.Range(1, 32).Select(i => (byte)i).ToArray();
        var greeting = Greeting(salt);

        var parsed = IprotoGreeting.Parse(greeting);

        Assert.StartsWith("Tarantool 2.11.0", parsed.Version);
        Assert.Equal(salt, parsed.Salt);
        Assert.Throws<IprotoException>(() => IprotoGreeting.Parse(new byte[IprotoGreeting.Size]));
    }

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

    [Fact]
    public void AnAnswerWithoutDataIsAProtocolError()
    {
        using var answer = Response(Write((ref MessagePackWriter w) => w.WriteMapHeader(0)));

        Assert.Throws<IprotoException>(() => answer.ReadData());
    }

    internal delegate void WriteAction(ref MessagePackWriter writer);

    internal static byte[] Write(WriteAction write)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new MessagePackWriter(output);
        write(ref writer);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    /// <summary>A successful answer {IPROTO_DATA: …}, in a pooled buffer as the connection makes them.</summary>
    internal static IprotoResponse Answer(WriteAction writeData) => Response(Write((ref MessagePackWriter w) =>
    {
        w.WriteMapHeader(1);
        w.Write(IprotoKey.Data);
        writeData(ref w);
    }));

    internal static IprotoResponse Response(byte[] body)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(body.Length);
        body.CopyTo(buffer, 0);
        return new IprotoResponse(buffer, body.Length);
    }

    internal static byte[] Frame(int code, ulong sync, byte[] body)
    {
        var header = Write((ref MessagePackWriter w) =>
        {
            w.WriteMapHeader(3);
            w.Write(IprotoKey.RequestType);
            w.Write(code);
            w.Write(IprotoKey.Sync);
            w.Write(sync);
            w.Write(IprotoKey.SchemaVersion);
            w.Write(80);
        });
        var length = Write((ref MessagePackWriter w) => w.Write((ulong)(header.Length + body.Length)));
        return [.. length, .. header, .. body];
    }

    internal static byte[] Greeting(byte[] salt)
    {
        var greeting = new byte[IprotoGreeting.Size];
        greeting.AsSpan().Fill((byte)' '); // Tarantool pads both lines with spaces
        Encoding.ASCII.GetBytes("Tarantool 2.11.0 (Binary) 7d3c8a6e-0000-0000-0000-000000000000").CopyTo(greeting, 0);
        greeting[63] = (byte)'\n';
        Encoding.ASCII.GetBytes(Convert.ToBase64String(salt)).CopyTo(greeting, 64);
        greeting[127] = (byte)'\n';
        return greeting;
    }
}
