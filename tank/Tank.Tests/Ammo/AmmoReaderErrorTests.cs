using System.Text;
using Tank.Ammo;
using Harness.CommandLine;

namespace Tank.Tests.Ammo;

public sealed class AmmoReaderErrorTests
{
    private const string Request = "GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: tank\r\n\r\n";

    private static InputException Fails(string ammo, AmmoFormat format = AmmoFormat.Phantom) =>
        Assert.Throws<InputException>(() => AmmoReader.Parse(Encoding.UTF8.GetBytes(ammo), "bad.ammo", format));

    [Fact]
    public void TanksOwnExampleReads()
    {
        var requests = AmmoReader.Parse(Encoding.UTF8.GetBytes($"55 good\n{Request}\n"), "a", AmmoFormat.Phantom);
        Assert.Equal(Request, Encoding.UTF8.GetString(requests.Single().Bytes));
        Assert.Equal("good", requests[0].Tag);
    }

    [Fact]
    public void SizeTooSmallNamesFileAndLine()
    {
        var error = Fails($"55 good\n{Request}\n54 bad\n{Request}\n");
        Assert.StartsWith("bad.ammo: line 7 (byte offset ", error.Message);
        Assert.Contains("does not match", error.Message);
    }

    [Fact]
    public void SizeTooLargeIsCaught() => Assert.Contains("does not match", Fails($"56 good\n{Request}\n55 next\n{Request}\n").Message);

    [Fact]
    public void SizePastTheEndIsUnexpectedEndOfFile() =>
        Assert.Contains("Unexpected end of file: read 56 bytes instead of 99", Fails($"99 good\n{Request}\n").Message);

    [Fact]
    public void BodyShorterThanContentLengthIsCaught()
    {
        var post = "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nabcd";
        Assert.Contains("Content-Length is 5", Fails($"{Encoding.UTF8.GetByteCount(post)}\n{post}\n").Message);
    }

    [Theory]
    [InlineData(AmmoFormat.Phantom)]
    [InlineData(AmmoFormat.Uri)]
    [InlineData(AmmoFormat.UriPost)]
    public void EmptyFileIsNoAmmo(AmmoFormat format)
    {
        var error = Fails("\n\n", format);
        Assert.Contains("No ammo", error.Message);
        Assert.StartsWith("bad.ammo:", error.Message);
    }

    [Fact]
    public void GarbageHeaderLineIsAnError() => Assert.Contains("expected '<size> [tag]'", Fails("GET / HTTP/1.1\r\n\r\n").Message);

    [Fact]
    public void UriPostBodySizeMismatchIsCaught() =>
        Assert.Contains("does not match", Fails("[Host: h]\n3 /a tag\nabcd\n", AmmoFormat.UriPost).Message);

    [Fact]
    public void UriHeadersAreSortedAndOverridden()
    {
        var requests = AmmoReader.Parse(Encoding.UTF8.GetBytes("[Host: a]\n[Accept: */*]\n/one\n[Host: b]\n/two t2\n"), "u", AmmoFormat.Uri, "1.1");
        Assert.Equal("GET /one HTTP/1.1\r\nAccept: */*\r\nHost: a\r\n\r\n", Encoding.UTF8.GetString(requests[0].Bytes));
        Assert.Equal("GET /two HTTP/1.1\r\nAccept: */*\r\nHost: b\r\n\r\n", Encoding.UTF8.GetString(requests[1].Bytes));
        Assert.Equal("t2", requests[1].Tag);
    }
}
