using System.Buffers.Binary;

namespace Wire.Connections.Tests;

public sealed class CallerSendingWriterTests
{
    [Fact]
    public async Task FramesOfConcurrentCallersArriveWholeAndInEachCallersOrder()
    {
        const int callers = 8, framesEach = 2000;
        var stream = new RecordingStream();
        var writer = new CallerSendingWriter(stream, _ => { }, initialCapacity: 256);
        writer.Start();

        await Task.WhenAll(Enumerable.Range(0, callers).Select(caller => Task.Run(() =>
        {
            for (var i = 0; i < framesEach; i++)
            {
                var frame = new TestFrame(Frame(caller, i));
                Assert.True(writer.TryEnqueue(ref frame));
            }
        })));
        await PipelinedWriterTests.WaitUntilAsync(() => stream.Length == callers * framesEach * 8);

        var all = stream.Writes.SelectMany(w => w).ToArray();
        var next = new int[callers];
        for (var offset = 0; offset < all.Length; offset += 8)
        {
            var caller = BinaryPrimitives.ReadInt32LittleEndian(all.AsSpan(offset));
            Assert.Equal(next[caller]++, BinaryPrimitives.ReadInt32LittleEndian(all.AsSpan(offset + 4)));
        }
        Assert.All(next, count => Assert.Equal(framesEach, count));
    }

    [Fact]
    public async Task FramesQueuedDuringAWriteGoOutTogetherInTheNext()
    {
        var stream = new RecordingStream();
        stream.HoldWrites();
        var writer = new CallerSendingWriter(stream, _ => { });
        writer.Start();

        var first = new TestFrame([1]);
        writer.TryEnqueue(ref first);
        await stream.WriteStarted.Task.WaitAsync(TimeSpan.FromSeconds(5));
        var second = new TestFrame([2]);
        var third = new TestFrame([3, 3]);
        writer.TryEnqueue(ref second);
        writer.TryEnqueue(ref third);
        stream.Release();
        await PipelinedWriterTests.WaitUntilAsync(() => stream.Length == 4);

        Assert.Equal([[1], [2, 3, 3]], stream.Writes);
    }

    [Fact]
    public async Task AFrameThatFailsToEncodeLeavesNoBytesBehind()
    {
        var stream = new RecordingStream();
        var writer = new CallerSendingWriter(stream, _ => { });
        stream.HoldWrites(); // nothing is sent until both frames were offered
        writer.Start();

        var broken = new TestFrame([9, 9, 9], throwAfter: true);
        Assert.Throws<InvalidOperationException>(() => writer.TryEnqueue(ref broken));
        var good = new TestFrame([1, 2]);
        Assert.True(writer.TryEnqueue(ref good));
        stream.Release();
        await PipelinedWriterTests.WaitUntilAsync(() => stream.Length == 2);

        Assert.Equal([1, 2], stream.Writes.SelectMany(w => w));
    }

    [Fact]
    public async Task AClosedWriterQueuesNothingAndItsLoopEnds()
    {
        var writer = new CallerSendingWriter(new RecordingStream(), _ => { });
        writer.Start();
        var reason = new IOException("gone");

        Assert.True(writer.TryClose(reason));
        Assert.False(writer.TryClose(new IOException("again")));
        var frame = new TestFrame([1]);

        Assert.False(writer.TryEnqueue(ref frame));
        Assert.False(frame.Written);
        Assert.Same(reason, writer.ClosedBecause);
        await writer.Completion.WaitAsync(TimeSpan.FromSeconds(5));
    }

    [Fact]
    public async Task AFailedWriteIsReportedToTheOwner()
    {
        var stream = new RecordingStream();
        var failure = new IOException("broken pipe");
        stream.Fail(failure);
        var reported = new TaskCompletionSource<Exception>(TaskCreationOptions.RunContinuationsAsynchronously);
        var writer = new CallerSendingWriter(stream, ex => reported.TrySetResult(ex));
        writer.Start();

        var frame = new TestFrame([1]);
        writer.TryEnqueue(ref frame);

        Assert.Same(failure, await reported.Task.WaitAsync(TimeSpan.FromSeconds(5)));
        await writer.Completion.WaitAsync(TimeSpan.FromSeconds(5));
    }

    [Fact]
    public void TheCallerThatFindsNoSendInProgressSendsBeforeTryEnqueueReturns()
    {
        var stream = new RecordingStream();
        var writer = new CallerSendingWriter(stream, _ => { });
        writer.Start();

        var frame = new TestFrame([1, 2, 3]);
        Assert.True(writer.TryEnqueue(ref frame));

        // RecordingStream completes an unheld write synchronously, so only a caller that sent it itself sees it here.
        Assert.Equal([[1, 2, 3]], stream.Writes);
    }

    [Fact]
    public async Task FramesQueuedBeforeStartGoOutOnStart()
    {
        var stream = new RecordingStream();
        var writer = new CallerSendingWriter(stream, _ => { });
        var frame = new TestFrame([7]);
        Assert.True(writer.TryEnqueue(ref frame));
        Assert.Empty(stream.Writes);

        writer.Start();
        await PipelinedWriterTests.WaitUntilAsync(() => stream.Length == 1);
    }

    private static byte[] Frame(int caller, int sequence)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, caller);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(4), sequence);
        return bytes;
    }
}
