namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>Splits received bytes into IPROTO frames: a MessagePack length, a header map, a body map.</summary>
internal static class IprotoFrame
{
    public delegate void Handler(ulong sync, int code, ReadOnlySpan<byte> body);

    /// <summary>
    /// Hands the first whole frame in <paramref name="data"/> to <paramref name="handler"/> and returns 0
    /// with the bytes it used; when the frame is incomplete, returns how many bytes the whole frame needs.
    /// </summary>
    public static int TryDispatch(ReadOnlySpan<byte> data, Handler handler, out int consumed)
    {
        consumed = 0;
        if (data.IsEmpty) return 9;
        var prefix = data[0] switch
        {
            <= MsgPackCode.MaxPositiveFixInt => 1,
            MsgPackCode.UInt8 => 2,
            MsgPackCode.UInt16 => 3,
            MsgPackCode.UInt32 => 5,
            MsgPackCode.UInt64 => 9,
            var other => throw new MsgPackException($"Bad IPROTO length prefix 0x{other:x2}."),
        };
        if (data.Length < prefix) return prefix;
        var length = new MsgPackReader(data[..prefix]).ReadUInt64();
        var total = checked(prefix + (int)length);
        if (data.Length < total) return total;

        var frame = data[prefix..total];
        var reader = new MsgPackReader(frame);
        ulong sync = 0;
        var code = 0;
        var headerCount = reader.ReadMapHeader();
        for (var i = 0; i < headerCount; i++)
        {
            switch (reader.ReadInt64())
            {
                case IprotoKey.RequestType: code = checked((int)reader.ReadInt64()); break;
                case IprotoKey.Sync: sync = reader.ReadUInt64(); break;
                default: reader.Skip(); break;
            }
        }
        handler(sync, code, frame[reader.Position..]);
        consumed = total;
        return 0;
    }

    /// <summary>The IPROTO_ERROR (0x31) message of an error body.</summary>
    public static string ReadErrorMessage(ReadOnlySpan<byte> body)
    {
        if (body.IsEmpty) return "(no message)";
        var reader = new MsgPackReader(body);
        var count = reader.ReadMapHeader();
        for (var i = 0; i < count; i++)
        {
            if (reader.ReadInt64() == IprotoKey.Error) return reader.ReadString() ?? "(no message)";
            reader.Skip();
        }
        return "(no message)";
    }
}
