using Crash.Check;
using Tank.Runner;

namespace Crash;

/// <summary>Everything a finished crash test knows, before it is counted up.</summary>
internal sealed record CrashRun(
    CrashOptions Options,
    string RunId,
    DateTimeOffset StartedAt,
    IReadOnlyList<WriteRecord> Writes,
    long Skipped,
    long SkippedNoFreeKey,
    FaultResult? Fault,
    double? ReadBackReadyS,
    IReadOnlyDictionary<string, KeyVerdict> Verdicts);

/// <summary>Counts a finished crash test up into its <see cref="CrashResult"/>.</summary>
internal static class CrashResultBuilder
{
    public static CrashResult Build(CrashRun run)
    {
        var options = run.Options;
        var failed = run.Writes.Where(w => w.Class != ResponseClass.Ack).ToList();
        var recovery = RecoveryTime.Compute(run.Writes.Select(w => new WriteTiming(w.SentS, w.CompletedS, w.Class == ResponseClass.Ack)).ToList(), run.Fault?.StartedS);
        var verdicts = run.Verdicts.OrderBy(v => v.Key, KeyOrder.Instance).ToList();
        long Count(Verdict verdict) => verdicts.Count(v => v.Value.Verdict == verdict);
        var ages = AckAges.At(run.Fault?.StartedS,
            run.Writes.Where(w => w.Outcome == WriteOutcome.Acked).Select(w => w.CompletedS),
            verdicts.Select(v => v.Value).Where(v => v.Verdict is Verdict.Lost or Verdict.Stale && v.LostAckS is not null).Select(v => v.LostAckS!.Value));
        List<KeyExample> Examples(Verdict verdict) => verdicts.Where(v => v.Value.Verdict == verdict).Take(CrashResult.ExamplesPerClass)
            .Select(v => new KeyExample(v.Key, v.Value.Expected, v.Value.Actual, v.Value.Reason)).ToList();

        return new CrashResult
        {
            Label = options.Label,
            Storage = options.Storage,
            Kind = options.Kind.Name(),
            Url = options.Url,
            RunId = run.RunId,
            StartedAt = run.StartedAt,
            Rate = options.Rate,
            RateSource = options.RateSource,
            RateFromReport = options.RateFromReport,
            RateReport = options.RateReport,
            RequestedSeconds = options.RequestedSeconds ?? options.Seconds,
            SecondsSource = options.SecondsSource,
            FaultBudgetS = options.FaultBudgetS,
            Seconds = options.Seconds,
            TimeoutMs = options.TimeoutMs,
            Items = options.Kind == CrashKind.Item ? options.Items.ToString() : null,
            FaultAtS = options.FaultAt,
            FaultCmd = options.FaultCommand,
            FaultExitCode = run.Fault?.ExitCode,
            FaultStartedS = Round(run.Fault?.StartedS),
            FaultEndedS = Round(run.Fault?.EndedS),
            IdleCoresDuringFault = run.Fault?.IdleCores,
            FaultStderrTail = run.Fault?.StderrTail ?? "",
            FaultError = run.Fault?.Error,
            Planned = options.PlannedWrites,
            Sent = run.Writes.Count,
            Acked = run.Writes.Count - failed.Count,
            Failed = Failures(failed),
            InDoubt = failed.Count(w => w.Outcome == WriteOutcome.InDoubt),
            Skipped = run.Skipped,
            SkippedNoFreeKey = run.SkippedNoFreeKey,
            KeysWritten = run.Writes.Where(w => w.Key is not null).Select(w => w.Key).Distinct().Count() + run.Writes.Count(w => w.Key is null),
            KeysAcked = verdicts.Count,
            Ok = Count(Verdict.Ok),
            OkFromInDoubt = verdicts.Count(v => v.Value is { Verdict: Verdict.Ok, FromInDoubtWrite: true }),
            Lost = Count(Verdict.Lost),
            Stale = Count(Verdict.Stale),
            Changed = Count(Verdict.Changed),
            Unverified = Count(Verdict.Unverified),
            LostAgesMs = ages.LostMs,
            OldestLostAgeMs = ages.OldestLostMs,
            OldestHeldAgeMs = ages.OldestHeldMs,
            RecoveryS = Round(recovery.RecoveryS),
            UnavailableS = Round(recovery.UnavailableS),
            FirstFailureS = Round(recovery.FirstFailureS),
            LastFailureS = Round(recovery.LastFailureS),
            ReadBackReadyS = Round(run.ReadBackReadyS),
            Timeline = Timeline.RunTimeline.Of(run.Writes, options.SloMs, Round(run.Fault?.StartedS), Round(run.Fault?.EndedS), options.Seconds),
            Examples = new CrashExamples
            {
                Lost = Examples(Verdict.Lost),
                Stale = Examples(Verdict.Stale),
                Changed = Examples(Verdict.Changed),
                Unverified = Examples(Verdict.Unverified),
            },
        };
    }

    /// <summary>Each key's writes in sending order, as the verifier takes them (writes without a key left out).</summary>
    public static Dictionary<string, List<WriteAttempt>> Histories(IEnumerable<WriteRecord> writes) =>
        writes.Where(w => w.Key is not null).OrderBy(w => w.Seq).GroupBy(w => w.Key!, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Select(w => new WriteAttempt(w.Value, w.Outcome, w.Outcome == WriteOutcome.Acked ? w.CompletedS : null)).ToList(), StringComparer.Ordinal);

    /// <summary>Writes not acknowledged, by how they ended.</summary>
    public static FailureCounts Failures(IReadOnlyCollection<WriteRecord> failed) => new()
    {
        Total = failed.Count,
        Http503 = failed.Count(w => w.Class == ResponseClass.Unavailable),
        OtherStatus = failed.Count(w => w.Class == ResponseClass.OtherStatus),
        Timeout = failed.Count(w => w.Class == ResponseClass.Timeout),
        Connection = failed.Count(w => w.Class == ResponseClass.Connection),
        OtherStatuses = new SortedDictionary<string, long>(
            failed.Where(w => w.Class == ResponseClass.OtherStatus).GroupBy(w => w.Status.ToString(System.Globalization.CultureInfo.InvariantCulture))
                .ToDictionary(g => g.Key, g => (long)g.Count()), StringComparer.Ordinal),
    };

    public static double? Round(double? seconds) => seconds is { } s ? Math.Round(s, 3) : null;

    /// <summary>Numeric keys in numeric order, so examples come out as 7, 12, 105.</summary>
    private sealed class KeyOrder : IComparer<string>
    {
        public static readonly KeyOrder Instance = new();

        public int Compare(string? x, string? y)
        {
            var byLength = (x?.Length ?? 0).CompareTo(y?.Length ?? 0);
            return byLength != 0 ? byLength : string.CompareOrdinal(x, y);
        }
    }
}
