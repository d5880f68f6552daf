namespace Crash;

/// <summary>The verdict on one acknowledged key after the crash (see <see cref="CrashVerifier"/>).</summary>
public enum Verdict
{
    /// <summary>The last acknowledged value, or a value written later whose outcome was in doubt.</summary>
    Ok,
    /// <summary>Acknowledged, yet missing, empty or back to the value from before the run.</summary>
    Lost,
    /// <summary>An older value: an acknowledged overwrite is gone, or a cache serves an old value.</summary>
    Stale,
    /// <summary>Anything else: a value never written, or one the API refused.</summary>
    Changed,
    /// <summary>The read-back never got an answer for the key.</summary>
    Unverified,
}

/// <param name="Expected">The last acknowledged value.</param>
/// <param name="Actual">What the read-back found (see <see cref="ReadValue.Describe"/>).</param>
/// <param name="Reason">Why, in words, for the result's examples.</param>
/// <param name="FromInDoubtWrite">The value read came from a write whose outcome was in doubt.</param>
public sealed record KeyVerdict(Verdict Verdict, string Expected, string Actual, string Reason, bool FromInDoubtWrite = false)
{
    /// <summary>For a lost or stale key: when the oldest acknowledged write that is gone was acknowledged (seconds since the run started; null: not known).</summary>
    public double? LostAckS { get; init; }
}
