namespace IntegrationService.Queues;

/// <summary>
/// Joins reads of a queue that arrive together into one take of several messages (issue 24; the
/// brokers' reads, issue 37): a read that finds fewer than <see cref="_maxInFlight"/> takes running
/// starts its own take of one message at once (so an idle queue answers as fast as before); reads
/// that arrive while that many takes run wait, and the next take to start serves all of them, up to
/// <see cref="_maxBatch"/>. Under load the backend then sees one take for many reads (one statement
/// and commit on PostgreSQL, one fetch on NATS, one ack on RabbitMQ) instead of one each, and only
/// a few takes, not every reader, contend for the queue's head.
/// <para>
/// Each waiting read gets one item of the take's result, oldest first to the read that came first,
/// or null when the take found fewer messages than reads (the queue is empty, or what is left is
/// held by another take). The take removes its messages before it returns, so a message is given to
/// one read only; a take that fails fails every read in it (a store whose take can fail some reads
/// only returns items that say so, and its read throws for them).
/// </para>
/// </summary>
internal sealed class QueueTakeBatcher<T> where T : class
{
    private readonly Func<int, Task<IReadOnlyList<T>>> _take;
    private readonly int _maxInFlight;
    private readonly int _maxBatch;
    private readonly Queue<TaskCompletionSource<T?>> _waiting = new();
    private int _inFlight;

    /// <param name="take">Takes up to the given number of messages, oldest first, and removes them from the queue.</param>
    /// <param name="maxInFlight">How many takes may run at once.</param>
    /// <param name="maxBatch">How many reads one take may serve.</param>
    public QueueTakeBatcher(Func<int, Task<IReadOnlyList<T>>> take, int maxInFlight, int maxBatch)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxInFlight, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxBatch, 1);
        _take = take;
        _maxInFlight = maxInFlight;
        _maxBatch = maxBatch;
    }

    /// <summary>How many takes are running now (for tests).</summary>
    public int InFlight { get { lock (_waiting) return _inFlight; } }

    /// <summary>One message, or null when the queue had none for this read.</summary>
    public Task<T?> TakeOneAsync()
    {
        var read = new TaskCompletionSource<T?>(TaskCreationOptions.RunContinuationsAsynchronously);
        List<TaskCompletionSource<T?>>? batch;
        lock (_waiting)
        {
            _waiting.Enqueue(read);
            batch = NextBatch();
        }
        if (batch is not null) _ = RunAsync(batch);
        return read.Task;
    }

    /// <summary>The reads the next take serves, if a take may start now; called under the lock.</summary>
    private List<TaskCompletionSource<T?>>? NextBatch()
    {
        if (_waiting.Count == 0 || _inFlight >= _maxInFlight) return null;
        _inFlight++;
        var batch = new List<TaskCompletionSource<T?>>(Math.Min(_waiting.Count, _maxBatch));
        while (batch.Count < _maxBatch && _waiting.TryDequeue(out var read)) batch.Add(read);
        return batch;
    }

    private async Task RunAsync(List<TaskCompletionSource<T?>> batch)
    {
        while (batch is not null)
        {
            try
            {
                var taken = await _take(batch.Count).ConfigureAwait(false);
                for (var i = 0; i < batch.Count; i++) batch[i].TrySetResult(i < taken.Count ? taken[i] : null);
            }
            catch (Exception e)
            {
                foreach (var read in batch) read.TrySetException(e);
            }
            lock (_waiting)
            {
                _inFlight--;
                batch = NextBatch()!;
            }
        }
    }
}
