using System.Security.Cryptography;
using System.Text;

namespace Tarantool.Iproto;

/// <summary>Tarantool's chap-sha1 authentication (the MySQL 4.1 scheme).</summary>
public static class ChapSha1
{
    public const int ScrambleSize = 20;

    /// <summary>xor(sha1(password), sha1(salt[0..20] + sha1(sha1(password)))).</summary>
    public static byte[] Scramble(ReadOnlySpan<byte> salt, string password)
    {
        if (salt.Length < ScrambleSize) throw new ArgumentException("The salt is shorter than 20 bytes.", nameof(salt));
        var hash1 = SHA1.HashData(Encoding.UTF8.GetBytes(password));
        var hash2 = SHA1.HashData(hash1);
        Span<byte> saltAndHash2 = stackalloc byte[ScrambleSize * 2];
        salt[..ScrambleSize].CopyTo(saltAndHash2);
        hash2.CopyTo(saltAndHash2[ScrambleSize..]);
        var mask = SHA1.HashData(saltAndHash2);
        for (var i = 0; i < ScrambleSize; i++) hash1[i] ^= mask[i];
        return hash1;
    }
}
