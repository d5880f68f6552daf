using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace IntegrationService.Kv.Cluster;

/// <summary>What a forwarded request asks of its owner.</summary>
internal enum KvPeerOp : byte
{
    Get = 1,
    Put = 2,
    Delete = 3,

    /// <summary>Nothing but an answer: opens a connection ahead of the first request.</summary>
    Ping = 4,
}

/// <summary>How the owner's store answered a forwarded request.</summary>
internal enum KvPeerOutcome : byte
{
    /// <summary>PUT, DELETE or ping done.</summary>
    Done = 0,

    /// <summary>GET found a value (the frame's payload).</summary>
    Value = 1,

    /// <summary>GET found none.</summary>
    NotFound = 2,

    /// <summary>The owner's store threw a <c>StorageUnavailableException</c> (backend and detail follow).</summary>
    Unavailable = 3,

    /// <summary>The owner's store threw a <c>BackendOverloadedException</c> (backend and detail follow).</summary>
    Overloaded = 4,

    /// <summary>The owner could not serve the frame at all (an architecture it does not have, a key it refuses, its own failure).</summary>
    Refused = 5,
}

/// <summary>A forwarded request as the owner reads it.</summary>
internal readonly record struct KvPeerRequest(KvPeerOp Op, string? Storage, string Key, byte[]? Value);

/// <summary>The owner's answer to one forwarded request.</summary>
internal readonly record struct KvPeerReply(KvPeerOutcome Outcome, byte[]? Value = null, string Backend = "", string Detail = "")
{
    public static KvPeerReply Done => new(KvPeerOutcome.Done);

    public static KvPeerReply NotFound => new(KvPeerOutcome.NotFound);
}

/// <summary>
/// The hop's wire format: what one node sends another to have a key it owns read or written, and the
/// answer. The forwarding node has already bound, checked and will answer the client's HTTP request
/// itself; the owner only runs the store operation, so the frames carry the operation, not HTTP.
/// <para>
/// A connection opens with <see cref="Preface"/>; its first byte (0) never begins an HTTP request, so
/// the owner tells the hop from HTTP on its one port (<see cref="KvPeerServer"/>). Then each frame is
/// a big-endian u32 length of what follows, then:
/// request: u8 op, u8 length + the <c>?storage=</c> name in ASCII (empty: the default), u16 length +
/// the key in UTF-8, and for a PUT the value (the rest);
/// answer: u8 outcome, then the value (<see cref="KvPeerOutcome.Value"/>) or, for a failure, u8 length
/// + the backend's name and the detail in UTF-8 (the rest). Answers come in the order of the requests.
/// </para>
/// </summary>
internal static class KvPeerProtocol
{
    /// <summary>The first bytes of every hop connection.</summary>
    public static ReadOnlySpan<byte> Preface => "\0kv-peer/1\n"u8;

    private const int LengthBytes = 4;

    /// <summary>The largest frame either side takes: a largest value with its key and names.</summary>
    public const int MaxFrameBytes = KvLimits.MaxValueBytes + 4 * 1024;

    /// <summary>The most a request frame can take, length included.</summary>
    public static int MaxRequestBytes(int valueBytes) => LengthBytes + 1 + 1 + byte.MaxValue + 2 + KvLimits.MaxKeyBytes + valueBytes;

    public static int WriteRequest(Span<byte> to, KvPeerOp op, string? storage, string key, ReadOnlySpan<byte> value)
    {
        var n = LengthBytes;
        to[n++] = (byte)op;
        var storageBytes = Encoding.ASCII.GetBytes(storage ?? "", to[(n + 1)..]);
        if (storageBytes > byte.MaxValue) throw new ArgumentException("The storage name is longer than 255 bytes.", nameof(storage));
        to[n] = (byte)storageBytes;
        n += 1 + storageBytes;
        var keyBytes = Encoding.UTF8.GetBytes(key, to[(n + 2)..]);
        if (keyBytes > KvLimits.MaxKeyBytes) throw new ArgumentException($"The key is longer than {KvLimits.MaxKeyBytes} bytes.", nameof(key));
        BinaryPrimitives.WriteUInt16BigEndian(to[n..], (ushort)keyBytes);
        n += 2 + keyBytes;
        value.CopyTo(to[n..]);
        n += value.Length;
        BinaryPrimitives.WriteUInt32BigEndian(to, (uint)(n - LengthBytes));
        return n;
    }

    /// <summary>The most an answer frame can take, length included.</summary>
    public static int MaxReplyBytes(in KvPeerReply reply) =>
        LengthBytes + 1 + (reply.Value?.Length ?? 0) + 1 + Encoding.UTF8.GetMaxByteCount(reply.Backend.Length + reply.Detail.Length);

    public static int WriteReply(Span<byte> to, in KvPeerReply reply)
    {
        var n = LengthBytes;
        to[n++] = (byte)reply.Outcome;
        if (reply.Outcome == KvPeerOutcome.Value)
        {
            reply.Value.AsSpan().CopyTo(to[n..]);
            n += reply.Value!.Length;
        }
        else if (reply.Outcome is KvPeerOutcome.Unavailable or KvPeerOutcome.Overloaded or KvPeerOutcome.Refused)
        {
            var backend = reply.Backend.Length > 64 ? reply.Backend[..64] : reply.Backend;
            var backendBytes = Encoding.UTF8.GetBytes(backend, to[(n + 1)..]);
            to[n] = (byte)backendBytes;
            n += 1 + backendBytes;
            n += Encoding.UTF8.GetBytes(reply.Detail, to[n..]);
        }
        BinaryPrimitives.WriteUInt32BigEndian(to, (uint)(n - LengthBytes));
        return n;
    }

    /// <summary>
    /// Cuts one whole frame (without its length) off the front of <paramref name="buffer"/>; false,
    /// <paramref name="buffer"/> untouched, when it has not all arrived.
    /// </summary>
    public static bool TryReadFrame(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> frame)
    {
        frame = default;
        if (buffer.Length < LengthBytes) return false;
        Span<byte> header = stackalloc byte[LengthBytes];
        buffer.Slice(0, LengthBytes).CopyTo(header);
        var length = BinaryPrimitives.ReadUInt32BigEndian(header);
        if (length is 0 or > MaxFrameBytes) throw new KvPeerProtocolException($"a frame of {length} bytes (1 to {MaxFrameBytes} allowed)");
        if (buffer.Length < LengthBytes + length) return false;
        frame = buffer.Slice(LengthBytes, length);
        buffer = buffer.Slice(frame.End);
        return true;
    }

    public static KvPeerRequest ParseRequest(ReadOnlySequence<byte> frame)
    {
        var reader = new SequenceReader<byte>(frame);
        if (!reader.TryRead(out var op) || op is < (byte)KvPeerOp.Get or > (byte)KvPeerOp.Ping) throw new KvPeerProtocolException($"an unknown operation {op}");
        var storage = ReadString(ref reader, ReadByte(ref reader), Encoding.ASCII);
        if (!reader.TryReadBigEndian(out short keyLength) || (ushort)keyLength > KvLimits.MaxKeyBytes) throw new KvPeerProtocolException("a key longer than allowed");
        var key = ReadString(ref reader, (ushort)keyLength, Encoding.UTF8);
        byte[]? value = null;
        if ((KvPeerOp)op == KvPeerOp.Put) value = reader.UnreadSequence.ToArray();
        else if (!reader.End) throw new KvPeerProtocolException($"a {(KvPeerOp)op} with a value");
        return new KvPeerRequest((KvPeerOp)op, storage.Length == 0 ? null : storage, key, value);
    }

    public static KvPeerReply ParseReply(ReadOnlySequence<byte> frame)
    {
        var reader = new SequenceReader<byte>(frame);
        var outcome = (KvPeerOutcome)ReadByte(ref reader);
        switch (outcome)
        {
            case KvPeerOutcome.Done or KvPeerOutcome.NotFound when reader.End:
                return new KvPeerReply(outcome);
            case KvPeerOutcome.Value:
                return new KvPeerReply(outcome, reader.UnreadSequence.ToArray());
            case KvPeerOutcome.Unavailable or KvPeerOutcome.Overloaded or KvPeerOutcome.Refused:
                var backend = ReadString(ref reader, ReadByte(ref reader), Encoding.UTF8);
                return new KvPeerReply(outcome, null, backend, Encoding.UTF8.GetString(reader.UnreadSequence));
            default:
                throw new KvPeerProtocolException($"an answer of unknown outcome {(byte)outcome}, or one with bytes it cannot have");
        }
    }

    private static byte ReadByte(ref SequenceReader<byte> reader) =>
        reader.TryRead(out var value) ? value : throw new KvPeerProtocolException("a frame cut short");

    private static string ReadString(ref SequenceReader<byte> reader, int length, Encoding encoding)
    {
        if (length == 0) return "";
        if (reader.Remaining < length) throw new KvPeerProtocolException("a frame cut short");
        var text = encoding.GetString(reader.UnreadSequence.Slice(0, length));
        reader.Advance(length);
        return text;
    }
}
