using System.Buffers;
using MessagePack;

namespace Tarantool.Iproto.Tests;

/// <summary>
/// MessagePack bytes and IPROTO answers made by hand, for the codec tests of the client (here) and
/// of the service's Tarantool stores (IntegrationService.Tests compiles this same file in).
/// </summary>
internal static class MessagePackBytes
{
    internal delegate void WriteAction(ref MessagePackWriter writer);

    internal static byte[] Write(WriteAction write)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new MessagePackWriter(output);
        write(ref writer);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    /// <summary>An answer's body in a pooled buffer, as the connection hands them over.</summary>
    internal static IprotoResponse Response(byte[] body)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(body.Length);
        body.CopyTo(buffer, 0);
        return new IprotoResponse(buffer, body.Length);
    }
}
