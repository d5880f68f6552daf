namespace Crash;

/// <summary>
/// Classifies one key from the writes sent to it and the value read back after the crash. Pure:
/// the values are canonical strings, unique per write within a run, so equality names the write.
/// </summary>
public static class CrashVerifier
{
    /// <summary>The verdict, or null when no write to the key was acknowledged (such keys are not counted).</summary>
    /// <param name="writes">Every write sent to the key, in the order sent.</param>
    /// <param name="read">What the read-back found.</param>
    /// <param name="before">The key's value before the run, when known (an item's pre-run set).</param>
    public static KeyVerdict? Classify(IReadOnlyList<WriteAttempt> writes, ReadValue read, string? before = null)
    {
        var lastAck = LastIndex(writes, WriteOutcome.Acked);
        if (lastAck < 0) return null;
        var expected = writes[lastAck].Value;
        var actual = read.Describe();
        KeyVerdict Judge(Verdict verdict, string reason, bool inDoubt = false) => new(verdict, expected, actual, reason, inDoubt);
        // Every acknowledged write after the one whose value is there is gone; the oldest of them is what a window is about.
        KeyVerdict Gone(Verdict verdict, string reason, int after = -1) => Judge(verdict, reason) with { LostAckS = FirstAckAfter(writes, after)?.AckedS };

        if (read.State == ReadState.Unreadable) return Judge(Verdict.Unverified, "no read succeeded");
        if (read.State == ReadState.Missing) return Gone(Verdict.Lost, "missing");
        var value = read.Value!;
        if (value == expected) return Judge(Verdict.Ok, "the last acknowledged value");

        for (var i = lastAck + 1; i < writes.Count; i++)
        {
            if (writes[i].Value != value) continue;
            return writes[i].Outcome == WriteOutcome.InDoubt
                ? Judge(Verdict.Ok, $"write {i + 1} of {writes.Count}, sent after the last acknowledged one, was in doubt", inDoubt: true)
                : Judge(Verdict.Changed, $"write {i + 1} of {writes.Count} was refused, yet its value is there");
        }
        if (value == ReadValue.Empty) return Gone(Verdict.Lost, "empty");
        for (var i = lastAck - 1; i >= 0; i--)
        {
            if (writes[i].Value != value) continue;
            return writes[i].Outcome switch
            {
                WriteOutcome.Acked => Gone(Verdict.Stale, $"the value of write {i + 1} of {writes.Count}, an earlier acknowledged one", after: i),
                WriteOutcome.InDoubt => Gone(Verdict.Stale, $"the value of write {i + 1} of {writes.Count}, in doubt, replaced the later acknowledged write {lastAck + 1}", after: i),
                _ => Judge(Verdict.Changed, $"write {i + 1} of {writes.Count} was refused, yet its value is there"),
            };
        }
        if (before is not null && value == before) return Gone(Verdict.Lost, "back to the value from before the run");
        return Judge(Verdict.Changed, "a value never written");
    }

    private static WriteAttempt? FirstAckAfter(IReadOnlyList<WriteAttempt> writes, int index)
    {
        for (var i = index + 1; i < writes.Count; i++)
        {
            if (writes[i].Outcome == WriteOutcome.Acked) return writes[i];
        }
        return null;
    }

    private static int LastIndex(IReadOnlyList<WriteAttempt> writes, WriteOutcome outcome)
    {
        for (var i = writes.Count - 1; i >= 0; i--)
        {
            if (writes[i].Outcome == outcome) return i;
        }
        return -1;
    }
}
