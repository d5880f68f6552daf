namespace Crash.Check;

/// <summary>
/// A run judged against the architecture's stated durability: the promise tested (processCrash or
/// powerLoss), what it allows, and what went beyond it (empty: within the promise).
/// </summary>
/// <param name="Promise">The catalogue field the fault tests: processCrash or powerLoss.</param>
/// <param name="Promised">Its value: nothing, window, since-snapshot or anything.</param>
/// <param name="AllowedLost">
/// How many of the writes the promise covers may be lost (every write for nothing; for a window, those
/// acknowledged more than the window before the fault): a queue's reads in doubt on an at-most-once read
/// path, else 0; null for anything.
/// </param>
/// <param name="DuplicatesAllowed">Whether a queue may deliver a message twice (at-least-once, or a restored snapshot).</param>
public sealed record RowCheck(string Promise, string Promised, long? AllowedLost, bool DuplicatesAllowed, IReadOnlyList<string> Problems)
{
    public bool Ok => Problems.Count == 0;

    /// <summary>The window the loss was checked against, in ms: lossWindowMs for window and since-snapshot; null for nothing and anything.</summary>
    public long? WindowMs { get; init; }

    /// <summary>For a window: how many lost writes were acknowledged more than the window before the fault (null: not a window, or not checked).</summary>
    public long? LostBeyondWindow { get; init; }

    /// <summary>Why the loss could not be checked against the promise (e.g. no write older than the window); null: it was.</summary>
    public string? NotChecked { get; init; }

    /// <summary>Losses the promise or the read path allowed, shown rather than passed in silence (e.g. "lost 4 (at-most-once read path: 4 reads in doubt)").</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];
}
