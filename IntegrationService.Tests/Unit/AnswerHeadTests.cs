using System.Buffers;
using System.Text;
using IntegrationService.Kv.Cluster;

namespace IntegrationService.Tests.Unit;

/// <summary>The hop's parsing of an owner's answer head, as Kestrel writes it and cut where TCP may cut it.</summary>
public sealed class AnswerHeadTests
{
    private const string Problem =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nDate: Thu, 26 Nov 2026 11:00:00 GMT\r\n" +
        "Server: Kestrel\r\nRetry-After: 1\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\n";

    [Fact]
    public void AHeadCutAcrossSegmentsParsesOnceWholeAndLeavesTheBody()
    {
        var bytes = Encoding.ASCII.GetBytes(Problem);
        for (var cut = 1; cut < bytes.Length; cut++)
        {
            var buffer = Segments(bytes[..cut], bytes[cut..]);
            Assert.True(AnswerHead.TryParse(ref buffer, out var head));
            Assert.Equal(new AnswerHead(503, 0, Chunked: true, Close: false, "application/problem+json", Allow: null, RetryAfter: "1"), head);
            Assert.Equal("1a\r\n", Encoding.ASCII.GetString(buffer.ToArray()));

            var partial = new ReadOnlySequence<byte>(bytes[..Math.Min(cut, bytes.Length - 5)]); // the empty line not there yet
            Assert.False(AnswerHead.TryParse(ref partial, out _));
        }
    }

    [Fact]
    public void AValueHasItsLengthAndAConnectionCloseIsNoticed()
    {
        var buffer = new ReadOnlySequence<byte>("HTTP/1.1 200 OK\r\ncontent-length: 5\r\nCONNECTION: close\r\nContent-Type: application/octet-stream\r\n\r\nvalue"u8.ToArray());
        Assert.True(AnswerHead.TryParse(ref buffer, out var head));
        Assert.Equal((200, 5L, false, true), (head.Status, head.ContentLength, head.Chunked, head.Close));
        Assert.Equal(5, buffer.Length);
    }

    [Fact]
    public void AnAnswerWithoutFramingOrStatusLineIsRefused()
    {
        var unframed = new ReadOnlySequence<byte>("HTTP/1.1 200 OK\r\n\r\n"u8.ToArray());
        Assert.Throws<KvPeerProtocolException>(() => AnswerHead.TryParse(ref unframed, out _));
        var noContent = new ReadOnlySequence<byte>("HTTP/1.1 204 No Content\r\n\r\n"u8.ToArray());
        Assert.True(AnswerHead.TryParse(ref noContent, out var head));
        Assert.Equal(0, head.ContentLength);
        var http10 = new ReadOnlySequence<byte>("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"u8.ToArray());
        Assert.Throws<KvPeerProtocolException>(() => AnswerHead.TryParse(ref http10, out _));
    }

    [Fact]
    public void AChunkSizeIsHexAndItsExtensionIgnored()
    {
        var buffer = new ReadOnlySequence<byte>("1A;name=value\r\nrest"u8.ToArray());
        Assert.True(AnswerHead.TryReadChunkSize(ref buffer, out var size));
        Assert.Equal(26, size);
        Assert.Equal(4, buffer.Length);
        var partial = new ReadOnlySequence<byte>("1A\r"u8.ToArray());
        Assert.False(AnswerHead.TryReadChunkSize(ref partial, out _));
    }

    private static ReadOnlySequence<byte> Segments(byte[] first, byte[] second)
    {
        var start = new Segment(first, 0);
        var end = start.Append(second);
        return new ReadOnlySequence<byte>(start, 0, end, second.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(byte[] bytes, long runningIndex)
        {
            Memory = bytes;
            RunningIndex = runningIndex;
        }

        public Segment Append(byte[] bytes)
        {
            var next = new Segment(bytes, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}
