using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>
/// Writes MessagePack straight into an <see cref="IBufferWriter{T}"/>, always choosing the
/// smallest encoding (Tarantool's 'unsigned' fields reject negative-typed integers, so
/// non-negative values are always written as uint families).
/// </summary>
public ref struct MsgPackWriter(IBufferWriter<byte> output)
{
    private readonly IBufferWriter<byte> _output = output;

    public readonly void WriteNil() => WriteByte(MsgPackCode.Nil);

    public readonly void WriteBoolean(bool value) => WriteByte(value ? MsgPackCode.True : MsgPackCode.False);

    public readonly void WriteInt64(long value)
    {
        if (value >= 0)
        {
            WriteUInt64((ulong)value);
        }
        else if (value >= -32)
        {
            WriteByte(unchecked((byte)(sbyte)value));
        }
        else if (value >= sbyte.MinValue)
        {
            var span = _output.GetSpan(2);
            span[0] = MsgPackCode.Int8;
            span[1] = unchecked((byte)(sbyte)value);
            _output.Advance(2);
        }
        else if (value >= short.MinValue)
        {
            var span = _output.GetSpan(3);
            span[0] = MsgPackCode.Int16;
            BinaryPrimitives.WriteInt16BigEndian(span[1..], (short)value);
            _output.Advance(3);
        }
        else if (value >= int.MinValue)
        {
            var span = _output.GetSpan(5);
            span[0] = MsgPackCode.Int32;
            BinaryPrimitives.WriteInt32BigEndian(span[1..], (int)value);
            _output.Advance(5);
        }
        else
        {
            var span = _output.GetSpan(9);
            span[0] = MsgPackCode.Int64;
            BinaryPrimitives.WriteInt64BigEndian(span[1..], value);
            _output.Advance(9);
        }
    }

    public readonly void WriteUInt64(ulong value)
    {
        if (value <= MsgPackCode.MaxPositiveFixInt)
        {
            WriteByte((byte)value);
        }
        else if (value <= byte.MaxValue)
        {
            var span = _output.GetSpan(2);
            span[0] = MsgPackCode.UInt8;
            span[1] = (byte)value;
            _output.Advance(2);
        }
        else if (value <= ushort.MaxValue)
        {
            var span = _output.GetSpan(3);
            span[0] = MsgPackCode.UInt16;
            BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)value);
            _output.Advance(3);
        }
        else if (value <= uint.MaxValue)
        {
            WriteUInt32Fixed((uint)value);
        }
        else
        {
            var span = _output.GetSpan(9);
            span[0] = MsgPackCode.UInt64;
            BinaryPrimitives.WriteUInt64BigEndian(span[1..], value);
            _output.Advance(9);
        }
    }

    /// <summary>Always 5 bytes (0xce + uint32): IPROTO's length prefix is patched in place after the frame is written.</summary>
    public readonly void WriteUInt32Fixed(uint value)
    {
        var span = _output.GetSpan(5);
        span[0] = MsgPackCode.UInt32;
        BinaryPrimitives.WriteUInt32BigEndian(span[1..], value);
        _output.Advance(5);
    }

    public readonly void WriteSingle(float value)
    {
        var span = _output.GetSpan(5);
        span[0] = MsgPackCode.Float32;
        BinaryPrimitives.WriteSingleBigEndian(span[1..], value);
        _output.Advance(5);
    }

    public readonly void WriteDouble(double value)
    {
        var span = _output.GetSpan(9);
        span[0] = MsgPackCode.Float64;
        BinaryPrimitives.WriteDoubleBigEndian(span[1..], value);
        _output.Advance(9);
    }

    /// <summary>Writes a UTF-8 str, or nil for null.</summary>
    public readonly void WriteString(string? value)
    {
        if (value is null)
        {
            WriteNil();
            return;
        }
        var length = Encoding.UTF8.GetByteCount(value);
        WriteLengthHeader(length, MsgPackCode.MinFixStr, 31, MsgPackCode.Str8, MsgPackCode.Str16, MsgPackCode.Str32);
        var span = _output.GetSpan(length);
        Encoding.UTF8.GetBytes(value, span);
        _output.Advance(length);
    }

    /// <summary>Writes a str from bytes that are already UTF-8 (no round trip through a string).</summary>
    public readonly void WriteStringUtf8(ReadOnlySpan<byte> utf8)
    {
        WriteLengthHeader(utf8.Length, MsgPackCode.MinFixStr, 31, MsgPackCode.Str8, MsgPackCode.Str16, MsgPackCode.Str32);
        utf8.CopyTo(_output.GetSpan(utf8.Length));
        _output.Advance(utf8.Length);
    }

    public readonly void WriteBinary(ReadOnlySpan<byte> value)
    {
        var length = value.Length;
        WriteLengthHeader(length, 0, -1, MsgPackCode.Bin8, MsgPackCode.Bin16, MsgPackCode.Bin32); // bin has no fix form
        value.CopyTo(_output.GetSpan(length));
        _output.Advance(length);
    }

    public readonly void WriteArrayHeader(int count) =>
        WriteLengthHeader(count, MsgPackCode.MinFixArray, 15, null, MsgPackCode.Array16, MsgPackCode.Array32);

    public readonly void WriteMapHeader(int count) =>
        WriteLengthHeader(count, MsgPackCode.MinFixMap, 15, null, MsgPackCode.Map16, MsgPackCode.Map32);

    /// <summary>Copies bytes that are already MessagePack (e.g. a pre-encoded key).</summary>
    public readonly void WriteRaw(ReadOnlySpan<byte> encoded)
    {
        encoded.CopyTo(_output.GetSpan(encoded.Length));
        _output.Advance(encoded.Length);
    }

    private readonly void WriteByte(byte value)
    {
        _output.GetSpan(1)[0] = value;
        _output.Advance(1);
    }

    private readonly void WriteLengthHeader(int length, byte fixBase, int fixMax, byte? code8, byte code16, byte code32)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        if (length <= fixMax)
        {
            WriteByte((byte)(fixBase | length));
        }
        else if (code8 is { } c8 && length <= byte.MaxValue)
        {
            var span = _output.GetSpan(2);
            span[0] = c8;
            span[1] = (byte)length;
            _output.Advance(2);
        }
        else if (length <= ushort.MaxValue)
        {
            var span = _output.GetSpan(3);
            span[0] = code16;
            BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)length);
            _output.Advance(3);
        }
        else
        {
            var span = _output.GetSpan(5);
            span[0] = code32;
            BinaryPrimitives.WriteUInt32BigEndian(span[1..], (uint)length);
            _output.Advance(5);
        }
    }
}
