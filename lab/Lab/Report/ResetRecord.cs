namespace Lab.Report;

/// <summary>
/// The state a repetition started from (capacity.json): what was done (a queue emptied or filled, the
/// servers settled), the seconds spent waiting for the machine to rest and what it waited for, and
/// whether it was idle when the repetition began (false: rest_max_seconds ran out first).
/// </summary>
public sealed record ResetRecord(IReadOnlyList<string> Done, double WaitedSeconds, string WaitedFor, bool Idle);
