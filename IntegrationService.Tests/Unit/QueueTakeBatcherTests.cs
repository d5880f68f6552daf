using IntegrationService.Queues;
using IntegrationService.Storage;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// <see cref="QueueTakeBatcher{T}"/> without a database: the take is a function the test completes by
/// hand, so which reads share a take, and what each gets, is seen exactly.
/// </summary>
public sealed class QueueTakeBatcherTests
{
    /// <summary>A queue of numbered messages whose takes wait until the test lets them finish.</summary>
    private sealed class HeldQueue
    {
        private long _next = 1;
        public long Depth = long.MaxValue;
        public readonly List<(int Count, TaskCompletionSource Release)> Takes = [];

        public async Task<IReadOnlyList<string>> TakeAsync(int count)
        {
            var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            lock (Takes) Takes.Add((count, release));
            await release.Task;
            var n = (int)Math.Min(count, Depth);
            Depth -= n;
            var taken = Enumerable.Range(0, n).Select(_ => $"m{_next++}").ToList();
            return taken;
        }

        public void Release(int take) => Takes[take].Release.SetResult();
    }

    [Fact]
    public async Task AReadOnAnIdleQueueStartsATakeOfOneAtOnce()
    {
        var queue = new HeldQueue();
        var batcher = new QueueTakeBatcher<string>(queue.TakeAsync, maxInFlight: 2, maxBatch: 64);
        var read = batcher.TakeOneAsync();
        Assert.Equal(1, Assert.Single(queue.Takes).Count);
        queue.Release(0);
        Assert.Equal("m1", await read);
        Assert.Equal(0, batcher.InFlight);
    }

    [Fact]
    public async Task ReadsThatArriveWhileTheTakesRunShareTheNextTakeOldestToTheFirst()
    {
        var queue = new HeldQueue();
        var batcher = new QueueTakeBatcher<string>(queue.TakeAsync, maxInFlight: 2, maxBatch: 64);
        var first = batcher.TakeOneAsync();
        var second = batcher.TakeOneAsync();
        var waiting = Enumerable.Range(0, 5).Select(_ => batcher.TakeOneAsync()).ToList();
        Assert.Equal([1, 1], queue.Takes.Select(t => t.Count));

        queue.Release(0);
        Assert.Equal("m1", await first);
        await WaitForTakes(queue, 3);
        Assert.Equal(5, queue.Takes[2].Count);
        Assert.All(waiting, w => Assert.False(w.IsCompleted));

        queue.Release(1);
        Assert.Equal("m2", await second);
        queue.Release(2);
        Assert.Equal(new string?[] { "m3", "m4", "m5", "m6", "m7" }, await Task.WhenAll(waiting));
        Assert.Equal(3, queue.Takes.Count);
    }

    [Fact]
    public async Task ATakeServesAtMostMaxBatchReadsAndTheRestGoToTheNext()
    {
        var queue = new HeldQueue();
        var batcher = new QueueTakeBatcher<string>(queue.TakeAsync, maxInFlight: 1, maxBatch: 3);
        var first = batcher.TakeOneAsync();
        var waiting = Enumerable.Range(0, 5).Select(_ => batcher.TakeOneAsync()).ToList();
        queue.Release(0);
        await first;
        await WaitForTakes(queue, 2);
        queue.Release(1);
        await WaitForTakes(queue, 3);
        queue.Release(2);
        Assert.Equal(new string?[] { "m2", "m3", "m4", "m5", "m6" }, await Task.WhenAll(waiting));
        Assert.Equal([1, 3, 2], queue.Takes.Select(t => t.Count));
    }

    [Fact]
    public async Task ReadsBeyondWhatTheQueueHeldGetNothing()
    {
        var queue = new HeldQueue { Depth = 2 };
        var batcher = new QueueTakeBatcher<string>(queue.TakeAsync, maxInFlight: 1, maxBatch: 64);
        var first = batcher.TakeOneAsync();
        var waiting = Enumerable.Range(0, 3).Select(_ => batcher.TakeOneAsync()).ToList();
        queue.Release(0);
        Assert.Equal("m1", await first);
        await WaitForTakes(queue, 2);
        queue.Release(1);
        Assert.Equal(new string?[] { "m2", null, null }, await Task.WhenAll(waiting));
    }

    [Fact]
    public async Task AFailedTakeFailsEveryReadInItAndLaterReadsAreServed()
    {
        var calls = 0;
        var batcher = new QueueTakeBatcher<string>(async count =>
        {
            await Task.Yield();
            if (Interlocked.Increment(ref calls) == 1) throw new StorageUnavailableException("postgres", "down");
            return Enumerable.Range(0, count).Select(i => $"ok{i}").ToList();
        }, maxInFlight: 1, maxBatch: 64);
        await Assert.ThrowsAsync<StorageUnavailableException>(() => batcher.TakeOneAsync());
        Assert.Equal("ok0", await batcher.TakeOneAsync());
        Assert.Equal(0, batcher.InFlight);
    }

    [Fact]
    public async Task ManyConcurrentReadsEachGetADifferentMessageAndNoneIsLeftWaiting()
    {
        long next = 0;
        var batcher = new QueueTakeBatcher<string>(async count =>
        {
            await Task.Delay(1);
            return Enumerable.Range(0, count).Select(_ => $"m{Interlocked.Increment(ref next)}").ToList();
        }, maxInFlight: 2, maxBatch: 16);
        var reads = await Task.WhenAll(Enumerable.Range(0, 2000).Select(_ => Task.Run(batcher.TakeOneAsync)));
        Assert.Equal(2000, reads.Distinct().Count());
        Assert.All(reads, r => Assert.NotNull(r));
        Assert.Equal(2000, Interlocked.Read(ref next));
        Assert.Equal(0, batcher.InFlight);
    }

    private static async Task WaitForTakes(HeldQueue queue, int count)
    {
        for (var i = 0; i < 500 && queue.Takes.Count < count; i++) await Task.Delay(10);
        Assert.Equal(count, queue.Takes.Count);
    }
}
