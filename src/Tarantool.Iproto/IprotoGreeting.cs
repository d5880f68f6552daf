using System.Text;

namespace Tarantool.Iproto;

/// <summary>The 128-byte greeting: a 64-byte version line, then a 64-byte line holding the base64 salt.</summary>
public sealed record IprotoGreeting(string Version, byte[] Salt)
{
    public const int Size = 128;

    public static IprotoGreeting Parse(ReadOnlySpan<byte> greeting)
    {
        if (greeting.Length < Size) throw new IprotoException("The Tarantool greeting is shorter than 128 bytes.");
        var version = Encoding.ASCII.GetString(greeting[..64]).TrimEnd('\n', ' ', '\0');
        if (!version.StartsWith("Tarantool", StringComparison.Ordinal))
        {
            throw new IprotoException($"Not a Tarantool greeting: '{version}'.");
        }
        var salt = Convert.FromBase64String(Encoding.ASCII.GetString(greeting[64..128]).Trim());
        return new IprotoGreeting(version, salt);
    }
}
