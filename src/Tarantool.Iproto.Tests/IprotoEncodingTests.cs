using System.Text;
using MessagePack;
using Wire.Connections;
using static Tarantool.Iproto.Tests.MessagePackBytes;

namespace Tarantool.Iproto.Tests;

/// <summary>IPROTO frames, greetings and answers, without a server.</summary>
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
    public void AnAnswerWithoutDataIsAProtocolError()
    {
        using var answer = Response(Write((ref MessagePackWriter w) => w.WriteMapHeader(0)));

        Assert.Throws<IprotoException>(() => answer.ReadData());
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
