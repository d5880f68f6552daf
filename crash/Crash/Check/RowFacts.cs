namespace Crash.Check;

/// <summary>What one run measured, as the check against the catalogue reads it.</summary>
/// <param name="ReadsInDoubt">Queue reads that failed around the fault: each may have taken a message with it.</param>
/// <param name="Unexpected">Queue messages delivered that were never written (or were refused).</param>
/// <param name="ApiCameBack">The API answered again after the fault (the read-back or the drain could start).</param>
/// <param name="FaultExitCode">The fault command's exit code (null: still running when the read-back began, or it could not run: <paramref name="FaultError"/>).</param>
/// <param name="FaultError">Why the fault could not be carried out (its target not found, its command not started); null: it ran.</param>
/// <param name="ServerErrors">Writes answered with a 5xx other than 503 (the service must shed with 503, never fail with 500).</param>
/// <param name="LostAgesMs">
/// Each lost write's age at the fault, in ms (<see cref="AckAges"/>): a lost message's, or for a lost or
/// stale key its oldest acknowledged write that is gone. Null: unknown, and no window can be checked.
/// </param>
/// <param name="OldestHeldAgeMs">The oldest write the store still had to keep at the fault, in ms: a window row is checked only when it is older than the window.</param>
/// <param name="ReadPath">A queue run's read path; null (or a key run) is held to <see cref="Check.ReadPath.AtLeastOnce"/>'s no loss.</param>
/// <param name="Duplicates">When each duplicated message was first read, and the fault's times: null where not known.</param>
public sealed record RowFacts(
    CrashKind Kind,
    long Acked,
    long Lost,
    long Stale,
    long Changed = 0,
    long Unverified = 0,
    long Duplicated = 0,
    long Unexpected = 0,
    long ReadsInDoubt = 0,
    long CacheDisagreements = 0,
    bool ApiCameBack = true,
    int? FaultExitCode = 0,
    long ServerErrors = 0,
    IReadOnlyList<long>? LostAgesMs = null,
    long? OldestHeldAgeMs = null,
    ReadPath? ReadPath = null,
    DuplicateTimes? Duplicates = null,
    string? FaultError = null);

/// <summary>
/// When the read that first took each duplicated message was sent, and when the fault started and ended (s on the
/// run's clock), with the reads' timeout: what bounds the duplicates a failover may explain.
/// </summary>
public sealed record DuplicateTimes(IReadOnlyList<double> FirstReadsS, double? FaultStartedS, double? FaultEndedS, double ReadTimeoutS);
