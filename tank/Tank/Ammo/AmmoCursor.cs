using Harness.CommandLine;

namespace Tank.Ammo;

/// <summary>A position in an ammo file that can say where it is (line and byte offset) in errors.</summary>
internal sealed class AmmoCursor(byte[] data, string name)
{
    public int Position { get; private set; }

    public bool AtEnd => Position >= data.Length;

    /// <summary>Skips empty lines; false at the end of the file.</summary>
    public bool SkipBlankLines()
    {
        while (Position < data.Length && (data[Position] == '\n' || data[Position] == '\r')) Position++;
        return Position < data.Length;
    }

    public string ReadLine()
    {
        var end = Array.IndexOf(data, (byte)'\n', Position);
        if (end < 0) end = data.Length;
        var line = AmmoReader.Ascii(data.AsSpan(Position, end - Position)).TrimEnd('\r');
        Position = Math.Min(end + 1, data.Length);
        return line;
    }

    public byte[] ReadExactly(int size)
    {
        if (Position + size > data.Length)
            throw Error(Position, $"Unexpected end of file: read {data.Length - Position} bytes instead of {size}");
        var bytes = data.AsSpan(Position, size).ToArray();
        Position += size;
        return bytes;
    }

    public bool TryConsumeNewline()
    {
        if (data[Position] == '\n') { Position++; return true; }
        if (data[Position] == '\r' && Position + 1 < data.Length && data[Position + 1] == '\n') { Position += 2; return true; }
        return false;
    }

    /// <summary>Zero-based line number of a byte offset.</summary>
    public int LineAt(int offset) => data.AsSpan(0, Math.Min(offset, data.Length)).Count((byte)'\n');

    public InputException Error(int offset, string message) =>
        new(name, $"line {LineAt(offset) + 1} (byte offset {offset})", message);
}
