namespace Wire.Connections.Tests;

/// <summary>A frame of given bytes; <see cref="Written"/> records that the writer asked for it, <c>throwAfter</c> fails it halfway.</summary>
internal struct TestFrame(byte[] bytes, bool throwAfter = false) : IOutgoingFrame
{
    public bool Written { get; private set; }

    public void WriteTo(PooledBufferWriter output)
    {
        Written = true;
        bytes.CopyTo(output.GetSpan(bytes.Length));
        output.Advance(bytes.Length);
        if (throwAfter) throw new InvalidOperationException("cannot encode");
    }
}
