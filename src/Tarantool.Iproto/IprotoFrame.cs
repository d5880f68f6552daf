using System.Buffers.Binary;
using MessagePack;
using Wire.Connections;

namespace Tarantool.Iproto;

/// <summary>IPROTO frames: a MessagePack length, a header map {type, sync}, a body map.</summary>
internal static class IprotoFrame
{
    /// <summary>The length prefix this client writes: always uint32 (0xce + 4 bytes), patched once the frame is written.</summary>
    public const int LengthPrefixSize = 5;

    public delegate void Handler(ulong sync, int code, ReadOnlyMemory<byte> body);

    /// <summary>Appends one request frame to <paramref name="output"/>; <paramref name="writeBody"/> null writes an empty body.</summary>
    public static void Write<TState>(PooledBufferWriter output, IprotoCode code, ulong sync, TState state, IprotoBodyWriter<TState>? writeBody)
    {
        var start = output.WrittenCount;
        var writer = new MessagePackWriter(output);
        writer.WriteUInt32(0);
        writer.WriteMapHeader(2);
        writer.Write(IprotoKey.RequestType);
        writer.Write((uint)code);
        writer.Write(IprotoKey.Sync);
        writer.Write(sync);
        if (writeBody is null) writer.WriteMapHeader(0);
        else writeBody(ref writer, state);
        writer.Flush();
        BinaryPrimitives.WriteUInt32BigEndian(output.WrittenSpan.Slice(start + 1, 4),
            (uint)(output.WrittenCount - start - LengthPrefixSize));
    }

    /// <summary>
    /// Hands the first whole frame in <paramref name="data"/> to <paramref name="handler"/> and returns 0
    /// with the bytes it used; when the frame is incomplete, returns how many bytes the whole frame needs.
    /// </summary>
    public static int TryDispatch(ReadOnlyMemory<byte> data, Handler handler, out int consumed)
    {
        consumed = 0;
        if (data.IsEmpty) return 9;
        var prefix = data.Span[0] switch
        {
            <= MessagePackCode.MaxFixInt => 1,
            MessagePackCode.UInt8 => 2,
            MessagePackCode.UInt16 => 3,
            MessagePackCode.UInt32 => 5,
            MessagePackCode.UInt64 => 9,
            var other => throw new IprotoException($"Bad IPROTO length prefix 0x{other:x2}."),
        };
        if (data.Length < prefix) return prefix;
        var length = new MessagePackReader(data[..prefix]).ReadUInt64();
        var total = checked(prefix + (int)length);
        if (data.Length < total) return total;

        var frame = data[prefix..total];
        var reader = new MessagePackReader(frame);
        ulong sync = 0;
        var code = 0;
        var headerCount = reader.ReadMapHeader();
        for (var i = 0; i < headerCount; i++)
        {
            switch (reader.ReadInt64())
            {
                case IprotoKey.RequestType: code = reader.ReadInt32(); break;
                case IprotoKey.Sync: sync = reader.ReadUInt64(); break;
                default: reader.Skip(); break;
            }
        }
        handler(sync, code, frame[(int)reader.Consumed..]);
        consumed = total;
        return 0;
    }

    /// <summary>The IPROTO_ERROR (0x31) message of an error body.</summary>
    public static string ReadErrorMessage(ReadOnlyMemory<byte> body)
    {
        if (body.IsEmpty) return "(no message)";
        var reader = new MessagePackReader(body);
        var count = reader.ReadMapHeader();
        for (var i = 0; i < count; i++)
        {
            if (reader.ReadInt64() == IprotoKey.Error) return reader.ReadString() ?? "(no message)";
            reader.Skip();
        }
        return "(no message)";
    }
}
