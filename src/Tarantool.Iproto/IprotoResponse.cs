using System.Buffers;
using MessagePack;

namespace Tarantool.Iproto;

/// <summary>
/// The body of one successful answer, in a pooled buffer: read it, then dispose the response
/// (exactly once) to return the buffer.
/// </summary>
public readonly struct IprotoResponse(byte[] buffer, int length) : IDisposable
{
    public ReadOnlyMemory<byte> Body => buffer.AsMemory(0, length);

    /// <summary>A reader positioned at the value of IPROTO_DATA (0x30), usually an array of tuples.</summary>
    public MessagePackReader ReadData()
    {
        var reader = new MessagePackReader(Body);
        var count = reader.ReadMapHeader();
        for (var i = 0; i < count; i++)
        {
            if (reader.ReadInt64() == IprotoKey.Data) return reader;
            reader.Skip();
        }
        throw new IprotoException("The answer has no IPROTO_DATA.");
    }

    public void Dispose() => ArrayPool<byte>.Shared.Return(buffer);
}
