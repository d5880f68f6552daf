namespace IntegrationService.Storage.RabbitMq;

/// <summary>
/// Message ids for a broker that numbers nothing itself: microseconds since the Unix epoch, or one
/// more than the last id when the clock has not moved on, so they grow with the order of writes
/// within a process and across its restarts (while the clock does not step back). Two service
/// processes writing to one queue may interleave their ids.
/// </summary>
internal sealed class MessageIdClock(TimeProvider time)
{
    private long _last;

    public long Next()
    {
        while (true)
        {
            var last = Volatile.Read(ref _last);
            var next = Math.Max(last + 1, (time.GetUtcNow() - DateTimeOffset.UnixEpoch).Ticks / TimeSpan.TicksPerMicrosecond);
            if (Interlocked.CompareExchange(ref _last, next, last) == last) return next;
        }
    }
}
