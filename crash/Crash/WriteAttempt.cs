namespace Crash;

/// <summary>One write to a key, in the order the writes were sent: the value it carried and how it ended.</summary>
/// <param name="AckedS">When an acknowledged write's answer came, in seconds since the run started (null: not acknowledged, or not known).</param>
public sealed record WriteAttempt(string Value, WriteOutcome Outcome, double? AckedS = null);
