namespace Crash;

/// <summary>One write to a key, in the order the writes were sent: the value it carried and how it ended.</summary>
public sealed record WriteAttempt(string Value, WriteOutcome Outcome);
