using System.Text;
using Tank.Runner;

namespace Tank.Tests.Runner;

public sealed class ResponseParserTests
{
    private static ResponseParser FeedBytewise(string response)
    {
        var parser = new ResponseParser();
        parser.Reset();
        foreach (var b in Encoding.ASCII.GetBytes(response))
        {
            Assert.False(parser.IsComplete, "completed before the last byte");
            Assert.True(parser.Consume([b]));
        }
        return parser;
    }

    [Fact]
    public void ContentLengthResponseCompletesOnItsLastByte()
    {
        var parser = FeedBytewise("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
        Assert.True(parser.IsComplete);
        Assert.Equal(200, parser.Status);
        Assert.False(parser.CloseAfter);
    }

    [Fact]
    public void ChunkedResponseCompletesAfterTheLastChunkAndTrailers()
    {
        var parser = FeedBytewise("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n");
        Assert.True(parser.IsComplete);
        Assert.Equal(404, parser.Status);
    }

    [Fact]
    public void ConnectionCloseIsNoted() =>
        Assert.True(FeedBytewise("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").CloseAfter);

    [Fact]
    public void ResponseWithoutLengthReadsUntilClose()
    {
        var parser = new ResponseParser();
        parser.Reset();
        parser.Consume("HTTP/1.0 200 OK\r\n\r\nsome body"u8);
        Assert.False(parser.IsComplete);
        parser.EndOfStream();
        Assert.True(parser.IsComplete);
        Assert.True(parser.CloseAfter);
    }

    [Fact]
    public void NoContentEndsWithItsHeadersAndKeepsTheConnection()
    {
        // What an empty queue answers: 204 without Content-Length (Kestrel sends none), so no body may be awaited.
        var parser = FeedBytewise("HTTP/1.1 204 No Content\r\nDate: Mon, 01 Jan 2024 00:00:00 GMT\r\nServer: Kestrel\r\n\r\n");
        Assert.True(parser.IsComplete);
        Assert.Equal(204, parser.Status);
        Assert.False(parser.CloseAfter);
    }

    [Fact]
    public void NotHttpIsRejected()
    {
        var parser = new ResponseParser();
        parser.Reset();
        Assert.False(parser.Consume("SSH-2.0-OpenSSH\r\n\r\n"u8));
    }
}
