namespace Lab.Bench;

/// <summary>
/// The outcome of a <see cref="CapacitySearch"/>: every hold in order, the confirmation holds, and
/// the confirmed rate (0: nothing held for the confirmation's length) with the hold that confirmed it.
/// </summary>
public sealed record SearchResult(IReadOnlyList<Hold> Holds, IReadOnlyList<Hold> Confirmations, long ConfirmedRps, Hold? Confirmation)
{
    /// <summary>No hold failed: the search never reached the limit, so the confirmed rate is a lower bound.</summary>
    public bool NeverFailed { get; init; }
}
