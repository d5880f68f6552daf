namespace IntegrationService.Storage.Postgres;

/// <summary>
/// Which message id a read of the PostgreSQL queue should ask for first, so that concurrent readers
/// each go straight to a different row by primary key instead of all scanning from the head and
/// stepping over each other's locked rows (issue 24). Ids are handed out in order from the last id
/// taken; a read whose id is missing (taken already, never committed, a gap) falls back to the head
/// scan in the same statement and re-aims the cursor from what it took. Every
/// <see cref="HeadScanEvery"/>th read goes to the head regardless, so a message the cursor passed
/// (its insert committed after the cursor's id was handed out) waits at most that many reads.
/// This is a hint only: correctness (each message taken once) comes from the statement, not from it.
/// </summary>
internal sealed class QueueTakeCursor
{
    /// <summary>One read in this many scans from the head rather than asking for the next id.</summary>
    public const int HeadScanEvery = 64;

    /// <summary>A head taken this far behind the cursor means the cursor ran past the tail: it jumps back.</summary>
    private const long MaxLead = 4096;

    /// <summary>Stands for "no id": identity ids start at 1.</summary>
    public const long HeadOnly = 0;

    private long _lastHandedOut;
    private long _reads;

    /// <summary>The id to ask for first, or <see cref="HeadOnly"/> for a read that scans from the head.</summary>
    public long Next() =>
        Interlocked.Increment(ref _reads) % HeadScanEvery == 0 ? HeadOnly : Interlocked.Increment(ref _lastHandedOut);

    /// <summary>Re-aims the cursor after a read that asked for <paramref name="asked"/> and took <paramref name="taken"/> (null: the queue was empty).</summary>
    public void Taken(long asked, long? taken)
    {
        if (taken == asked) return;
        if (taken is not { } id)
        {
            // Nothing there: give the id back, so a reader that catches up with the writer asks for the
            // next message's id rather than one past it (which would serve it after the message behind it).
            if (asked != HeadOnly) Interlocked.CompareExchange(ref _lastHandedOut, asked - 1, asked);
            return;
        }
        var current = Volatile.Read(ref _lastHandedOut);
        while (id > current)
        {
            var seen = Interlocked.CompareExchange(ref _lastHandedOut, id, current);
            if (seen == current) return;
            current = seen;
        }
        if (id < current - MaxLead) Interlocked.CompareExchange(ref _lastHandedOut, id, current);
    }
}
