namespace IntegrationService.Storage.Postgres;

/// <summary>
/// Where the PostgreSQL queue's next take starts its index scan: just past the highest id taken so
/// far, so a take does not walk the dead index entries that every delete leaves at the head until
/// vacuum removes them (at 10 000 reads/s, 100 000 of them within 10 s, and the reads' p99 climbed
/// through every 15-s hold). A message whose insert committed after the cursor passed its id (ids
/// are handed out before commit) is left behind: every <see cref="HeadScanEvery"/>th take scans from
/// the head instead, and a take that finds fewer messages than it asked for from the cursor on
/// scans the head for the rest (<see cref="PostgresQueueStore"/>), so "empty" is never an answer
/// while a message waits behind the cursor.
/// This is a hint only: each message is still taken once, by the statement's row locks.
/// </summary>
internal sealed class QueueTakeCursor
{
    /// <summary>One take in this many scans from the head.</summary>
    public const int HeadScanEvery = 32;

    /// <summary>Stands for "scan from the head": identity ids start at 1.</summary>
    public const long Head = 0;

    private long _from = Head;
    private long _takes;

    /// <summary>The lowest id the next take scans from.</summary>
    public long Next()
    {
        if (Interlocked.Increment(ref _takes) % HeadScanEvery == 0) return Head;
        return Volatile.Read(ref _from);
    }

    /// <summary>Moves the cursor past the highest id a take got (never back).</summary>
    public void Taken(long highestId)
    {
        var next = highestId + 1;
        var current = Volatile.Read(ref _from);
        while (next > current)
        {
            var seen = Interlocked.CompareExchange(ref _from, next, current);
            if (seen == current) return;
            current = seen;
        }
    }
}
