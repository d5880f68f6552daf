namespace Crash;

/// <summary>When a write started and ended (seconds since the run started) and whether it was acknowledged.</summary>
public readonly record struct WriteTiming(double SentS, double CompletedS, bool Acked);

/// <param name="RecoveryS">Seconds from the fault's start until writes were acknowledged again; 0 if none failed, null if none succeeded after the last failure.</param>
/// <param name="FirstFailureS">When the first failed write was sent.</param>
/// <param name="LastFailureS">When the last failed write was sent.</param>
/// <param name="UnavailableS">
/// From the first failed write's sending to the completion of the first acknowledged write sent after the last
/// failed one: how long writes failed, as a client saw it; 0 if none failed, null if none succeeded afterwards.
/// </param>
public sealed record Recovery(double? RecoveryS, double? FirstFailureS, double? LastFailureS, long Failed, double? UnavailableS = 0);

/// <summary>
/// "How long until the API answered 2xx again": from the fault's start to the completion of the
/// first acknowledged write sent after the last failed one. Failures before the fault count too
/// (the result cannot be negative); a write fails when it is not acknowledged.
/// </summary>
public static class RecoveryTime
{
    public static Recovery Compute(IReadOnlyCollection<WriteTiming> writes, double? faultStartS)
    {
        var failed = writes.Where(w => !w.Acked).ToList();
        if (failed.Count == 0) return new Recovery(0, null, null, 0, 0);
        var firstFailure = failed.Min(w => w.SentS);
        var lastFailure = failed.Max(w => w.SentS);
        var backAt = writes.Where(w => w.Acked && w.SentS > lastFailure).Select(w => (double?)w.CompletedS).Min();
        double? recovery = backAt is { } at && faultStartS is { } fault ? Math.Max(0, at - fault) : null;
        return new Recovery(recovery, firstFailure, lastFailure, failed.Count, backAt - firstFailure);
    }
}
