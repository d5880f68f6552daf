namespace IntegrationService.Storage.Postgres;

/// <summary>
/// Where the PostgreSQL queue's next take starts its index scan. Every delete leaves a dead index
/// entry at the head until vacuum removes it (at 10 000 reads/s, 100 000 within 10 s, and
/// autovacuum may not come for a minute), and a scan from the head walks all of them: with 450 000
/// there, a read at 2 000/s had p99 5.1 ms against 2.8 ms after a VACUUM. So a take scans from:
/// <list type="bullet">
/// <item>the cursor, just past the highest id taken so far (<see cref="Next"/>, most takes);</item>
/// <item>the <see cref="Floor"/>, the cursor as it was at least <see cref="FloorLag"/> ago, every
/// <see cref="FloorScanEvery"/>th take: ids are handed out before their insert commits, so a
/// message can commit behind the cursor; one whose id is below the floor was handed out more than
/// <see cref="FloorLag"/> ago (an identity hands ids out in order) and its insert has not committed
/// since, which is rare, so the floor scan walks only the last second or two of dead entries;</item>
/// <item>the head, at most once per <see cref="HeadScanInterval"/>, for those rare ones.</item>
/// </list>
/// <see cref="PostgresQueueStore"/> also scans from the floor for the rest of a take that found some
/// but too few from the cursor on, and from the head when it found none (before it answers "empty"),
/// so "empty" is never an answer while a committed message waits.
/// This is a hint only: each message is still taken once, by the statement's row locks.
/// </summary>
internal sealed class QueueTakeCursor(TimeProvider time)
{
    /// <summary>One take in this many scans from the floor.</summary>
    public const int FloorScanEvery = 32;

    /// <summary>How far behind the cursor the floor is, in time.</summary>
    public static readonly TimeSpan FloorLag = TimeSpan.FromSeconds(1);

    /// <summary>At most one take per this interval scans from the head.</summary>
    public static readonly TimeSpan HeadScanInterval = TimeSpan.FromSeconds(5);

    /// <summary>Stands for "scan from the head": identity ids start at 1.</summary>
    public const long Head = 0;

    private readonly Lock _gate = new();
    private long _from = Head;
    private long _takes;

    // The floor is the cursor sampled between FloorLag and twice FloorLag ago: a sample taken at
    // _sampledAt becomes the floor once it is FloorLag old.
    private long _floor = Head;
    private long _sample = Head;
    private long _sampledAt;
    private long _headScannedAt;

    public QueueTakeCursor() : this(TimeProvider.System)
    {
    }

    /// <summary>The lowest id the floor scans start from.</summary>
    public long Floor
    {
        get
        {
            lock (_gate)
            {
                Advance(time.GetTimestamp());
                return _floor;
            }
        }
    }

    /// <summary>The lowest id the next take scans from.</summary>
    public long Next()
    {
        var now = time.GetTimestamp();
        lock (_gate)
        {
            Advance(now);
            if (time.GetElapsedTime(_headScannedAt, now) >= HeadScanInterval)
            {
                _headScannedAt = now;
                return Head;
            }
            return ++_takes % FloorScanEvery == 0 ? _floor : _from;
        }
    }

    /// <summary>Moves the cursor past the highest id a take got (never back).</summary>
    public void Taken(long highestId)
    {
        lock (_gate) _from = Math.Max(_from, highestId + 1);
    }

    private void Advance(long now)
    {
        if (time.GetElapsedTime(_sampledAt, now) < FloorLag) return;
        _floor = _sample;
        _sample = _from;
        _sampledAt = now;
    }
}
