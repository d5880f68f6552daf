using System.Security.Cryptography;
using System.Text;

namespace Tarantool.Iproto.Tests;

public sealed class ChapSha1Tests
{
    // No published Tarantool test vector was at hand, so the scramble is checked the way the server
    // checks it: unmask with sha1(salt + sha1(sha1(password))) and compare sha1 of the result with
    // sha1(sha1(password)). The real server accepting it is tested in IprotoClientTests.
    [Fact]
    public void ScrambleIsAcceptedByTheServerSideCheck()
    {
        var salt = Convert.FromBase64String("NgUHpnjSkPyVpE3l9azOVf6k3j7BBbTmlg/OyrXTQ6A=");
        var scramble = ChapSha1.Scramble(salt, "integration");

        var hash2 = SHA1.HashData(SHA1.HashData(Encoding.UTF8.GetBytes("integration")));
        var mask = SHA1.HashData([.. salt.AsSpan(0, 20), .. hash2]);
        var hash1 = scramble.Zip(mask, (a, b) => (byte)(a ^ b)).ToArray();

        Assert.Equal(20, scramble.Length);
        Assert.Equal(hash2, SHA1.HashData(hash1));
    }

    [Fact]
    public void OnlyTheFirst20BytesOfTheSaltCount()
    {
        var salt = Enumerable.Range(0, 32).Select(i => (byte)i).ToArray();
        var otherTail = salt.ToArray();
        otherTail[25] ^= 0xff;

        Assert.Equal(ChapSha1.Scramble(salt, "p"), ChapSha1.Scramble(otherTail, "p"));
        Assert.NotEqual(ChapSha1.Scramble(salt, "p"), ChapSha1.Scramble(salt, "q"));
    }

    [Fact]
    public void GreetingSaltIsDecodedFromTheSecondLine()
    {
        var greeting = Encoding.ASCII.GetBytes(
            "Tarantool 2.6.0 (Binary) 7170b4af-c72f-4f07-8729-08fc678543a1".PadRight(63) + "\n" +
            "NgUHpnjSkPyVpE3l9azOVf6k3j7BBbTmlg/OyrXTQ6A=".PadRight(63) + "\n");

        var parsed = IprotoGreeting.Parse(greeting);

        Assert.StartsWith("Tarantool 2.6.0", parsed.Version);
        Assert.Equal(32, parsed.Salt.Length);
    }
}
