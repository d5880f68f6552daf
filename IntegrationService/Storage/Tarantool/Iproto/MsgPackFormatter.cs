namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>How one CLR type is written and read; resolved once per type, used by the mapper.</summary>
internal static class MsgPackFormatter<T>
{
    public static readonly MsgPackWrite<T> Write;
    public static readonly MsgPackRead<T> Read;

    static MsgPackFormatter()
    {
        // Each branch's delegate has the exact type when T matches, so the casts never fail.
        object write, read;
        if (typeof(T) == typeof(long))
        {
            write = (MsgPackWrite<long>)((ref MsgPackWriter w, long v) => w.WriteInt64(v));
            read = (MsgPackRead<long>)((ref MsgPackReader r) => r.ReadInt64());
        }
        else if (typeof(T) == typeof(long?))
        {
            write = (MsgPackWrite<long?>)((ref MsgPackWriter w, long? v) => { if (v is { } x) w.WriteInt64(x); else w.WriteNil(); });
            read = (MsgPackRead<long?>)((ref MsgPackReader r) => r.TryReadNil() ? null : r.ReadInt64());
        }
        else if (typeof(T) == typeof(int))
        {
            write = (MsgPackWrite<int>)((ref MsgPackWriter w, int v) => w.WriteInt64(v));
            read = (MsgPackRead<int>)((ref MsgPackReader r) => r.ReadInt32());
        }
        else if (typeof(T) == typeof(int?))
        {
            write = (MsgPackWrite<int?>)((ref MsgPackWriter w, int? v) => { if (v is { } x) w.WriteInt64(x); else w.WriteNil(); });
            read = (MsgPackRead<int?>)((ref MsgPackReader r) => r.TryReadNil() ? null : r.ReadInt32());
        }
        else if (typeof(T) == typeof(ulong))
        {
            write = (MsgPackWrite<ulong>)((ref MsgPackWriter w, ulong v) => w.WriteUInt64(v));
            read = (MsgPackRead<ulong>)((ref MsgPackReader r) => r.ReadUInt64());
        }
        else if (typeof(T) == typeof(double))
        {
            write = (MsgPackWrite<double>)((ref MsgPackWriter w, double v) => w.WriteDouble(v));
            read = (MsgPackRead<double>)((ref MsgPackReader r) => r.ReadDouble());
        }
        else if (typeof(T) == typeof(bool))
        {
            write = (MsgPackWrite<bool>)((ref MsgPackWriter w, bool v) => w.WriteBoolean(v));
            read = (MsgPackRead<bool>)((ref MsgPackReader r) => r.ReadBoolean());
        }
        else if (typeof(T) == typeof(string))
        {
            write = (MsgPackWrite<string?>)((ref MsgPackWriter w, string? v) => w.WriteString(v));
            read = (MsgPackRead<string?>)((ref MsgPackReader r) => r.ReadString());
        }
        else if (typeof(T) == typeof(byte[]))
        {
            write = (MsgPackWrite<byte[]?>)((ref MsgPackWriter w, byte[]? v) => { if (v is null) w.WriteNil(); else w.WriteBinary(v); });
            read = (MsgPackRead<byte[]?>)((ref MsgPackReader r) => r.TryReadNil() ? null : r.ReadBinary().ToArray());
        }
        else if (typeof(T) == typeof(long[]))
        {
            write = (MsgPackWrite<long[]?>)(WriteLongArray);
            read = (MsgPackRead<long[]?>)(ReadLongArray);
        }
        else
        {
            throw new NotSupportedException($"MessagePack mapping of {typeof(T)} is not supported.");
        }
        Write = (MsgPackWrite<T>)write;
        Read = (MsgPackRead<T>)read;
    }

    private static void WriteLongArray(ref MsgPackWriter writer, long[]? values)
    {
        if (values is null)
        {
            writer.WriteNil();
            return;
        }
        writer.WriteArrayHeader(values.Length);
        foreach (var value in values) writer.WriteInt64(value);
    }

    private static long[]? ReadLongArray(ref MsgPackReader reader)
    {
        if (reader.TryReadNil()) return null;
        var values = new long[reader.ReadArrayHeader()];
        for (var i = 0; i < values.Length; i++) values[i] = reader.ReadInt64();
        return values;
    }
}
