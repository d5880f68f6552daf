using System.Security.Cryptography;
using System.Text;

namespace IntegrationService.Seeding;

/// <summary>An MD5 over a sample of stored data, fed piece by piece (only compared with itself: not a security use).</summary>
internal sealed class FingerprintDigest : IDisposable
{
    private readonly IncrementalHash _md5 = IncrementalHash.CreateHash(HashAlgorithmName.MD5);

    public void Add(ReadOnlySpan<byte> bytes)
    {
        Span<byte> length = stackalloc byte[4];
        System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(length, bytes.Length);
        _md5.AppendData(length); // length-prefixed, so ["ab", "c"] and ["a", "bc"] differ
        _md5.AppendData(bytes);
    }

    public void Add(string? text)
    {
        if (text is null) Add([0xff, 0xfe]);
        else Add(Encoding.UTF8.GetBytes(text));
    }

    public string Hex() => Convert.ToHexStringLower(_md5.GetHashAndReset());

    public void Dispose() => _md5.Dispose();
}
