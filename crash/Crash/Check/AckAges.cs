namespace Crash.Check;

/// <summary>
/// How old the acknowledged writes were when the fault struck, which is what a window promise is
/// about: each lost write's age, and the oldest age among the writes the store still had to keep.
/// An age runs in whole milliseconds from the acknowledgement, as the tester received it, to the
/// fault's start, so it is a little under the store's own; a write acknowledged after the fault
/// started has a negative age.
/// </summary>
/// <param name="LostMs">Each lost write's age at the fault.</param>
/// <param name="OldestHeldMs">The oldest write the store still had to keep at the fault (null: none, or no fault).</param>
public sealed record AckAges(IReadOnlyList<long> LostMs, long? OldestHeldMs)
{
    public static readonly AckAges None = new([], null);

    /// <summary>The oldest lost write's age (null: none lost).</summary>
    public long? OldestLostMs => LostMs.Count == 0 ? null : LostMs.Max();

    /// <param name="faultS">When the fault started, in seconds since the run started; null: no fault, no ages.</param>
    /// <param name="heldAckS">When each write the store had to keep at the fault was acknowledged.</param>
    /// <param name="lostAckS">When each lost write was acknowledged.</param>
    public static AckAges At(double? faultS, IEnumerable<double> heldAckS, IEnumerable<double> lostAckS)
    {
        if (faultS is not { } fault) return None;
        long Age(double ackS) => (long)Math.Round((fault - ackS) * 1000);
        var held = heldAckS.Select(Age).ToList();
        return new([.. lostAckS.Select(Age)], held.Count == 0 ? null : held.Max());
    }
}
