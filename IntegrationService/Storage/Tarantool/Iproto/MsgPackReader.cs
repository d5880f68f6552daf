using System.Buffers.Binary;
using System.Text;

namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>
/// Reads MessagePack from one contiguous span (the connection hands every IPROTO frame over
/// whole, so no value straddles buffers). Integer readers accept every integer width.
/// </summary>
public ref struct MsgPackReader(ReadOnlySpan<byte> buffer)
{
    private readonly ReadOnlySpan<byte> _buffer = buffer;
    private int _position;

    /// <summary>Bytes consumed so far.</summary>
    public readonly int Position => _position;

    public readonly bool End => _position >= _buffer.Length;

    public readonly MsgPackType PeekType()
    {
        var code = Peek();
        return code switch
        {
            <= MsgPackCode.MaxPositiveFixInt or >= MsgPackCode.MinNegativeFixInt => MsgPackType.Integer,
            <= MsgPackCode.MaxFixMap => MsgPackType.Map,
            <= MsgPackCode.MaxFixArray => MsgPackType.Array,
            <= MsgPackCode.MaxFixStr => MsgPackType.String,
            MsgPackCode.Nil => MsgPackType.Nil,
            MsgPackCode.False or MsgPackCode.True => MsgPackType.Boolean,
            MsgPackCode.Bin8 or MsgPackCode.Bin16 or MsgPackCode.Bin32 => MsgPackType.Binary,
            MsgPackCode.Float32 or MsgPackCode.Float64 => MsgPackType.Float,
            >= MsgPackCode.UInt8 and <= MsgPackCode.Int64 => MsgPackType.Integer,
            MsgPackCode.Str8 or MsgPackCode.Str16 or MsgPackCode.Str32 => MsgPackType.String,
            MsgPackCode.Array16 or MsgPackCode.Array32 => MsgPackType.Array,
            MsgPackCode.Map16 or MsgPackCode.Map32 => MsgPackType.Map,
            MsgPackCode.Ext8 or MsgPackCode.Ext16 or MsgPackCode.Ext32
                or (>= MsgPackCode.FixExt1 and <= MsgPackCode.FixExt16) => MsgPackType.Extension,
            _ => throw new MsgPackException($"Unknown MessagePack code 0x{code:x2}."),
        };
    }

    /// <summary>Consumes a nil and returns true, or leaves anything else in place.</summary>
    public bool TryReadNil()
    {
        if (Peek() != MsgPackCode.Nil) return false;
        _position++;
        return true;
    }

    public bool ReadBoolean() => ReadByte() switch
    {
        MsgPackCode.True => true,
        MsgPackCode.False => false,
        var code => throw Unexpected("bool", code),
    };

    public long ReadInt64()
    {
        var code = ReadByte();
        switch (code)
        {
            case <= MsgPackCode.MaxPositiveFixInt: return code;
            case >= MsgPackCode.MinNegativeFixInt: return unchecked((sbyte)code);
            case MsgPackCode.UInt8: return ReadByte();
            case MsgPackCode.UInt16: return BinaryPrimitives.ReadUInt16BigEndian(Take(2));
            case MsgPackCode.UInt32: return BinaryPrimitives.ReadUInt32BigEndian(Take(4));
            case MsgPackCode.UInt64:
                var unsigned = BinaryPrimitives.ReadUInt64BigEndian(Take(8));
                return unsigned <= long.MaxValue ? (long)unsigned : throw new MsgPackException($"{unsigned} does not fit a long.");
            case MsgPackCode.Int8: return unchecked((sbyte)ReadByte());
            case MsgPackCode.Int16: return BinaryPrimitives.ReadInt16BigEndian(Take(2));
            case MsgPackCode.Int32: return BinaryPrimitives.ReadInt32BigEndian(Take(4));
            case MsgPackCode.Int64: return BinaryPrimitives.ReadInt64BigEndian(Take(8));
            default: throw Unexpected("integer", code);
        }
    }

    public ulong ReadUInt64()
    {
        if (Peek() == MsgPackCode.UInt64)
        {
            _position++;
            return BinaryPrimitives.ReadUInt64BigEndian(Take(8));
        }
        var value = ReadInt64();
        return value >= 0 ? (ulong)value : throw new MsgPackException($"{value} is negative, expected unsigned.");
    }

    public int ReadInt32() => checked((int)ReadInt64());

    /// <summary>Reads float32, float64 or any integer (Lua numbers may arrive as either).</summary>
    public double ReadDouble()
    {
        switch (Peek())
        {
            case MsgPackCode.Float64:
                _position++;
                return BinaryPrimitives.ReadDoubleBigEndian(Take(8));
            case MsgPackCode.Float32:
                _position++;
                return BinaryPrimitives.ReadSingleBigEndian(Take(4));
            case MsgPackCode.UInt64:
                return ReadUInt64();
            default:
                return ReadInt64();
        }
    }

    /// <summary>Reads a str, or null for nil.</summary>
    public string? ReadString()
    {
        var utf8 = ReadStringUtf8(out var isNil);
        return isNil ? null : Encoding.UTF8.GetString(utf8);
    }

    /// <summary>A str's UTF-8 bytes as a slice of the buffer (valid as long as the buffer is); nil sets <paramref name="isNil"/>.</summary>
    public ReadOnlySpan<byte> ReadStringUtf8(out bool isNil)
    {
        var code = ReadByte();
        int length = code switch
        {
            MsgPackCode.Nil => -1,
            >= MsgPackCode.MinFixStr and <= MsgPackCode.MaxFixStr => code & 0x1f,
            MsgPackCode.Str8 => ReadByte(),
            MsgPackCode.Str16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            MsgPackCode.Str32 => checked((int)BinaryPrimitives.ReadUInt32BigEndian(Take(4))),
            _ => throw Unexpected("string", code),
        };
        isNil = length < 0;
        return isNil ? default : Take(length);
    }

    /// <summary>The bin payload as a slice of the buffer (valid as long as the buffer is).</summary>
    public ReadOnlySpan<byte> ReadBinary()
    {
        var code = ReadByte();
        int length = code switch
        {
            MsgPackCode.Bin8 => ReadByte(),
            MsgPackCode.Bin16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            MsgPackCode.Bin32 => checked((int)BinaryPrimitives.ReadUInt32BigEndian(Take(4))),
            _ => throw Unexpected("binary", code),
        };
        return Take(length);
    }

    public int ReadArrayHeader()
    {
        var code = ReadByte();
        return code switch
        {
            >= MsgPackCode.MinFixArray and <= MsgPackCode.MaxFixArray => code & 0x0f,
            MsgPackCode.Array16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            MsgPackCode.Array32 => checked((int)BinaryPrimitives.ReadUInt32BigEndian(Take(4))),
            _ => throw Unexpected("array", code),
        };
    }

    public int ReadMapHeader()
    {
        var code = ReadByte();
        return code switch
        {
            >= MsgPackCode.MinFixMap and <= MsgPackCode.MaxFixMap => code & 0x0f,
            MsgPackCode.Map16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            MsgPackCode.Map32 => checked((int)BinaryPrimitives.ReadUInt32BigEndian(Take(4))),
            _ => throw Unexpected("map", code),
        };
    }

    /// <summary>Skips one whole value, nested containers included.</summary>
    public void Skip()
    {
        var pending = 1L;
        while (pending-- > 0)
        {
            var code = ReadByte();
            switch (code)
            {
                case <= MsgPackCode.MaxPositiveFixInt or >= MsgPackCode.MinNegativeFixInt:
                case MsgPackCode.Nil or MsgPackCode.False or MsgPackCode.True:
                    break;
                case <= MsgPackCode.MaxFixMap: pending += 2 * (code & 0x0f); break;
                case <= MsgPackCode.MaxFixArray: pending += code & 0x0f; break;
                case <= MsgPackCode.MaxFixStr: Take(code & 0x1f); break;
                case MsgPackCode.Bin8 or MsgPackCode.Str8: Take(ReadByte()); break;
                case MsgPackCode.Bin16 or MsgPackCode.Str16: Take(BinaryPrimitives.ReadUInt16BigEndian(Take(2))); break;
                case MsgPackCode.Bin32 or MsgPackCode.Str32: Take(checked((int)BinaryPrimitives.ReadUInt32BigEndian(Take(4)))); break;
                case MsgPackCode.Ext8: Take(1 + ReadByte()); break;
                case MsgPackCode.Ext16: Take(1 + BinaryPrimitives.ReadUInt16BigEndian(Take(2))); break;
                case MsgPackCode.Ext32: Take(1 + checked((int)BinaryPrimitives.ReadUInt32BigEndian(Take(4)))); break;
                case MsgPackCode.Float32: Take(4); break;
                case MsgPackCode.Float64: Take(8); break;
                case MsgPackCode.UInt8 or MsgPackCode.Int8: Take(1); break;
                case MsgPackCode.UInt16 or MsgPackCode.Int16: Take(2); break;
                case MsgPackCode.UInt32 or MsgPackCode.Int32: Take(4); break;
                case MsgPackCode.UInt64 or MsgPackCode.Int64: Take(8); break;
                case >= MsgPackCode.FixExt1 and <= MsgPackCode.FixExt16: Take(1 + (1 << (code - MsgPackCode.FixExt1))); break;
                case MsgPackCode.Array16: pending += BinaryPrimitives.ReadUInt16BigEndian(Take(2)); break;
                case MsgPackCode.Array32: pending += BinaryPrimitives.ReadUInt32BigEndian(Take(4)); break;
                case MsgPackCode.Map16: pending += 2L * BinaryPrimitives.ReadUInt16BigEndian(Take(2)); break;
                case MsgPackCode.Map32: pending += 2L * BinaryPrimitives.ReadUInt32BigEndian(Take(4)); break;
                default: throw new MsgPackException($"Unknown MessagePack code 0x{code:x2}.");
            }
        }
    }

    private readonly byte Peek() =>
        _position < _buffer.Length ? _buffer[_position] : throw new MsgPackException("Unexpected end of data.");

    private byte ReadByte()
    {
        var value = Peek();
        _position++;
        return value;
    }

    private ReadOnlySpan<byte> Take(int count)
    {
        if ((uint)count > (uint)(_buffer.Length - _position)) throw new MsgPackException("Unexpected end of data.");
        var slice = _buffer.Slice(_position, count);
        _position += count;
        return slice;
    }

    private static MsgPackException Unexpected(string expected, byte code) =>
        new($"Expected {expected}, found MessagePack code 0x{code:x2}.");
}
