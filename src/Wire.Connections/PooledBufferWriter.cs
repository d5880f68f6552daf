using System.Buffers;

namespace Wire.Connections;

/// <summary>
/// A growable buffer from <see cref="ArrayPool{T}.Shared"/> whose written bytes can be patched
/// (a frame that starts with its length, known only after the body is written, is patched in place).
/// </summary>
public sealed class PooledBufferWriter(int initialCapacity = 64 * 1024) : IBufferWriter<byte>, IDisposable
{
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);

    public int WrittenCount { get; private set; }

    public ReadOnlyMemory<byte> WrittenMemory => _buffer.AsMemory(0, WrittenCount);

    public Span<byte> WrittenSpan => _buffer.AsSpan(0, WrittenCount);

    public void Advance(int count) => WrittenCount += count;

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(WrittenCount);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(WrittenCount);
    }

    /// <summary>Forgets the content; returns an oversized buffer to the pool so one bulk load does not pin it.</summary>
    public void Clear()
    {
        WrittenCount = 0;
        if (_buffer.Length > 4 * 1024 * 1024)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);
        }
    }

    /// <summary>Drops everything written after <paramref name="count"/> bytes (a frame that failed to encode).</summary>
    public void Truncate(int count) => WrittenCount = Math.Min(WrittenCount, count);

    public void Dispose()
    {
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = [];
        WrittenCount = 0;
    }

    private void Ensure(int sizeHint)
    {
        var needed = WrittenCount + Math.Max(sizeHint, 1);
        if (needed <= _buffer.Length) return;
        var bigger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, _buffer.Length * 2));
        _buffer.AsSpan(0, WrittenCount).CopyTo(bigger);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = bigger;
    }
}
