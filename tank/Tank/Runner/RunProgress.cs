namespace Tank.Runner;

/// <summary>
/// A run's state as each second closes, for a caller's live display (<c>lab bench</c>'s status
/// line): the second's rate, and the totals and p99 of everything answered so far.
/// </summary>
public sealed record RunProgress(long Second, long TotalSeconds, long SentLastSecond, long AnsweredLastSecond, long Responses, long Errors, long P99SoFarUs);
