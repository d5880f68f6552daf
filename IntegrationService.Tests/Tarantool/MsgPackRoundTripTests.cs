using System.Buffers;
using IntegrationService.Storage.Tarantool.Iproto;

namespace IntegrationService.Tests.Tarantool;

public sealed class MsgPackRoundTripTests
{
    [Theory]
    [InlineData(0L, 1)]
    [InlineData(127L, 1)]        // largest positive fixint
    [InlineData(128L, 2)]        // smallest uint8
    [InlineData(255L, 2)]
    [InlineData(256L, 3)]        // smallest uint16
    [InlineData(65535L, 3)]
    [InlineData(65536L, 5)]      // smallest uint32
    [InlineData(4294967295L, 5)]
    [InlineData(4294967296L, 9)] // smallest uint64
    [InlineData(long.MaxValue, 9)]
    [InlineData(-1L, 1)]
    [InlineData(-32L, 1)]        // smallest negative fixint
    [InlineData(-33L, 2)]        // int8
    [InlineData(-128L, 2)]
    [InlineData(-129L, 3)]       // int16
    [InlineData(-32768L, 3)]
    [InlineData(-32769L, 5)]     // int32
    [InlineData(-2147483648L, 5)]
    [InlineData(-2147483649L, 9)] // int64
    [InlineData(long.MinValue, 9)]
    public void IntegersRoundTripInTheSmallestEncoding(long value, int expectedSize)
    {
        var bytes = Write((ref MsgPackWriter w) => w.WriteInt64(value));

        Assert.Equal(expectedSize, bytes.Length);
        var reader = new MsgPackReader(bytes);
        Assert.Equal(MsgPackType.Integer, reader.PeekType());
        Assert.Equal(value, reader.ReadInt64());
        Assert.True(reader.End);
    }

    [Fact]
    public void UInt64MaxRoundTripsAndDoesNotFitALong()
    {
        var bytes = Write((ref MsgPackWriter w) => w.WriteUInt64(ulong.MaxValue));

        Assert.Equal([0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], bytes);
        Assert.Equal(ulong.MaxValue, new MsgPackReader(bytes).ReadUInt64());
        Assert.Throws<MsgPackException>(() => new MsgPackReader(bytes).ReadInt64());
    }

    [Fact]
    public void NonNegativeValuesUseUnsignedFamiliesForTarantoolUnsignedFields()
    {
        Assert.Equal([0xcc, 200], Write((ref MsgPackWriter w) => w.WriteInt64(200)));
        Assert.Equal([0xe0], Write((ref MsgPackWriter w) => w.WriteInt64(-32)));
    }

    [Theory]
    [InlineData(0, 1)]
    [InlineData(31, 1)]      // largest fixstr
    [InlineData(32, 2)]      // smallest str8
    [InlineData(255, 2)]
    [InlineData(256, 3)]     // smallest str16
    [InlineData(65535, 3)]
    [InlineData(65536, 5)]   // str32
    public void StringsRoundTripWithTheRightHeader(int length, int headerSize)
    {
        var value = new string('x', length);
        var bytes = Write((ref MsgPackWriter w) => w.WriteString(value));

        Assert.Equal(headerSize + length, bytes.Length);
        Assert.Equal(value, new MsgPackReader(bytes).ReadString());
    }

    [Fact]
    public void Utf8StringsCountBytesNotCharacters()
    {
        var value = "пушкин ✓ " + new string('я', 20); // 2-byte letters push it past fixstr
        var bytes = Write((ref MsgPackWriter w) => w.WriteString(value));

        Assert.Equal(0xd9, bytes[0]);
        Assert.Equal(value, new MsgPackReader(bytes).ReadString());
    }

    [Fact]
    public void NilRoundTripsAsNullStringAndIsDetected()
    {
        var bytes = Write((ref MsgPackWriter w) => { w.WriteString(null); w.WriteNil(); });

        Assert.Equal([0xc0, 0xc0], bytes);
        var reader = new MsgPackReader(bytes);
        Assert.Null(reader.ReadString());
        Assert.Equal(MsgPackType.Nil, reader.PeekType());
        Assert.True(reader.TryReadNil());
        Assert.True(reader.End);
    }

    [Fact]
    public void BooleansFloatsAndBinaryRoundTrip()
    {
        byte[] blob = [1, 2, 3, 255];
        var large = new byte[70_000];
        var bytes = Write((ref MsgPackWriter w) =>
        {
            w.WriteBoolean(true);
            w.WriteBoolean(false);
            w.WriteSingle(1.5f);
            w.WriteDouble(-14.2082);
            w.WriteDouble(double.MaxValue);
            w.WriteBinary(blob);
            w.WriteBinary(large);
        });

        var reader = new MsgPackReader(bytes);
        Assert.True(reader.ReadBoolean());
        Assert.False(reader.ReadBoolean());
        Assert.Equal(1.5, reader.ReadDouble());
        Assert.Equal(-14.2082, reader.ReadDouble());
        Assert.Equal(double.MaxValue, reader.ReadDouble());
        Assert.Equal(blob, reader.ReadBinary().ToArray());
        Assert.Equal(large.Length, reader.ReadBinary().Length);
        Assert.True(reader.End);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(15)]    // largest fixarray / fixmap
    [InlineData(16)]    // 16-bit header
    [InlineData(65536)] // 32-bit header
    public void ArrayAndMapHeadersRoundTripAndNestedValuesSkip(int count)
    {
        var bytes = Write((ref MsgPackWriter w) =>
        {
            w.WriteArrayHeader(count);
            for (var i = 0; i < count; i++) w.WriteInt64(i);
            w.WriteMapHeader(count);
            for (var i = 0; i < count; i++)
            {
                w.WriteInt64(i);
                w.WriteString("v");
            }
            w.WriteInt64(42);
        });

        var reader = new MsgPackReader(bytes);
        Assert.Equal(MsgPackType.Array, reader.PeekType());
        reader.Skip();
        Assert.Equal(MsgPackType.Map, reader.PeekType());
        Assert.Equal(count, reader.ReadMapHeader());
        for (var i = 0; i < count; i++)
        {
            Assert.Equal(i, reader.ReadInt64());
            Assert.Equal("v", reader.ReadString());
        }
        Assert.Equal(42, reader.ReadInt64());
    }

    [Fact]
    public void TruncatedDataThrowsInsteadOfReadingPastTheEnd()
    {
        var bytes = Write((ref MsgPackWriter w) => w.WriteString("hello"));

        Assert.Throws<MsgPackException>(() => new MsgPackReader(bytes.AsSpan(0, 3)).ReadString());
    }

    internal delegate void WriteAction(ref MsgPackWriter writer);

    internal static byte[] Write(WriteAction write)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new MsgPackWriter(output);
        write(ref writer);
        return output.WrittenSpan.ToArray();
    }
}
