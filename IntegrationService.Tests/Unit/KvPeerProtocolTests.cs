using System.Buffers;
using System.Text;
using CsCheck;
using IntegrationService.Kv;
using IntegrationService.Kv.Cluster;

namespace IntegrationService.Tests.Unit;

/// <summary>The hop's frames: what one node writes the other reads back as it was, wherever the bytes are cut.</summary>
public sealed class KvPeerProtocolTests
{
    private static byte[] Request(KvPeerOp op, string? storage, string key, byte[]? value)
    {
        var frame = new byte[KvPeerProtocol.MaxRequestBytes(value?.Length ?? 0)];
        return frame[..KvPeerProtocol.WriteRequest(frame, op, storage, key, value)];
    }

    private static byte[] Reply(KvPeerReply reply)
    {
        var frame = new byte[KvPeerProtocol.MaxReplyBytes(reply)];
        return frame[..KvPeerProtocol.WriteReply(frame, reply)];
    }

    private static readonly Gen<string> Key = Gen.String[Gen.Char, 1, 200].Where(k => !k.Contains('\0') && Encoding.UTF8.GetByteCount(k) <= KvLimits.MaxKeyBytes);

    [Fact]
    public void EveryRequestReadsBackAsItWasWritten()
    {
        Gen.Select(Gen.Enum<KvPeerOp>(), Gen.OneOf(Gen.Const((string?)null), Gen.OneOf("postgres", "tarantool-memtx", "redis-persistent")!), Key, Gen.Byte.Array[0, 300])
            .Sample((op, storage, key, bytes) =>
            {
                var value = op == KvPeerOp.Put ? bytes : null;
                var buffer = new ReadOnlySequence<byte>(Request(op, storage, key, value));
                Assert.True(KvPeerProtocol.TryReadFrame(ref buffer, out var frame));
                Assert.True(buffer.IsEmpty);
                var read = KvPeerProtocol.ParseRequest(frame);
                Assert.Equal((op, storage, key), (read.Op, read.Storage, read.Key));
                Assert.Equal(value, read.Value);
            });
    }

    public static TheoryData<string> Replies() => ["done", "value", "empty value", "not found", "unavailable", "overloaded", "refused"];

    private static KvPeerReply Named(string name) => name switch
    {
        "done" => KvPeerReply.Done,
        "value" => new KvPeerReply(KvPeerOutcome.Value, [1, 0, 255]),
        "empty value" => new KvPeerReply(KvPeerOutcome.Value, []),
        "not found" => KvPeerReply.NotFound,
        "unavailable" => new KvPeerReply(KvPeerOutcome.Unavailable, Backend: "tarantool", Detail: "no connection to 127.0.0.1:3301 — ünïcode"),
        "overloaded" => new KvPeerReply(KvPeerOutcome.Overloaded, Backend: "postgres", Detail: "postgres: 64 requests are in flight"),
        _ => new KvPeerReply(KvPeerOutcome.Refused, Backend: "node", Detail: "an architecture this node does not have"),
    };

    [Theory]
    [MemberData(nameof(Replies))]
    public void EveryAnswerReadsBackAsItWasWrittenWhereverTheBytesAreCut(string name)
    {
        var reply = Named(name);
        var bytes = Reply(reply).Concat(Reply(KvPeerReply.Done)).ToArray();
        for (var cut = 0; cut <= bytes.Length; cut++)
        {
            var read = new List<KvPeerReply>();
            var received = new ReadOnlySequence<byte>(bytes[..cut]);
            while (KvPeerProtocol.TryReadFrame(ref received, out var frame)) read.Add(KvPeerProtocol.ParseReply(frame));
            var buffer = new ReadOnlySequence<byte>(received.ToArray().Concat(bytes[cut..]).ToArray());
            while (KvPeerProtocol.TryReadFrame(ref buffer, out var frame)) read.Add(KvPeerProtocol.ParseReply(frame));

            Assert.Equal(2, read.Count);
            Assert.Equal((reply.Outcome, reply.Backend, reply.Detail), (read[0].Outcome, read[0].Backend, read[0].Detail));
            Assert.Equal(reply.Value, read[0].Value);
            Assert.Equal(KvPeerOutcome.Done, read[1].Outcome);
            Assert.True(buffer.IsEmpty);
        }
    }

    [Fact]
    public void AFrameLongerThanAnyValueCanMakeIsRefusedBeforeItIsWaitedFor()
    {
        var buffer = new ReadOnlySequence<byte>([0x7f, 0, 0, 0, 1]);
        Assert.Throws<KvPeerProtocolException>(() => KvPeerProtocol.TryReadFrame(ref buffer, out _));
        var empty = new ReadOnlySequence<byte>([0, 0, 0, 0]);
        Assert.Throws<KvPeerProtocolException>(() => KvPeerProtocol.TryReadFrame(ref empty, out _));
    }

    [Fact]
    public void AFrameThatBreaksTheFormatIsRefusedAndSaysWhy()
    {
        Assert.Contains("unknown operation", Assert.Throws<KvPeerProtocolException>(() => KvPeerProtocol.ParseRequest(new ReadOnlySequence<byte>([9, 0, 0, 1, 65]))).Message);
        Assert.Contains("cut short", Assert.Throws<KvPeerProtocolException>(() => KvPeerProtocol.ParseRequest(new ReadOnlySequence<byte>([1, 5, 65]))).Message);
        Assert.Contains("with a value", Assert.Throws<KvPeerProtocolException>(() => KvPeerProtocol.ParseRequest(new ReadOnlySequence<byte>([1, 0, 0, 1, 65, 66]))).Message);
        Assert.Contains("unknown outcome", Assert.Throws<KvPeerProtocolException>(() => KvPeerProtocol.ParseReply(new ReadOnlySequence<byte>([2, 1]))).Message);
    }
}
