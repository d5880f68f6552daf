namespace Lab.Bench;

/// <summary>
/// The sizes and durations of a bench run: the data set, the ammo, and every schedule, each
/// measured schedule derived from the capacity C a closed-model probe finds right before it (the
/// warm-up climbs to C, the measured ramp to <see cref="RampFactor"/>·C, so the report's
/// "max rps @ SLO" finds the knee instead of a lower bound). <c>--quick</c> is a smoke test.
/// </summary>
public sealed record BenchProfile
{
    public required bool Quick { get; init; }
    public required long Locations { get; init; }
    public required long Items { get; init; }
    public int ProbeInstances { get; init; } = 64;
    public required string ProbeSchedule { get; init; }
    public required int WarmupSeconds { get; init; }
    public required int RampSeconds { get; init; }
    public double RampFactor { get; init; } = 1.5;
    public required string PrefillSchedule { get; init; }
    public required long PrefillCount { get; init; }
    public required long QueueProbeDepth { get; init; }
    public required long KvKeys { get; init; }
    public required int ClusterWarmupSeconds { get; init; }
    /// <summary>The runner loops over the file when a schedule needs more.</summary>
    public required long AmmoCount { get; init; }
    /// <summary>How often each cell's capacity search and confirmation run after its one ramp (--repeat overrides it).</summary>
    public required int Repeats { get; init; }
    /// <summary>The capacity search after the ramps: bisecting holds, then a longer confirmation.</summary>
    public required int SearchSteps { get; init; }
    /// <summary>Holds of each repetition's search after the first, which starts from the previous confirmed rate (held already).</summary>
    public int LaterSearchSteps { get; init; } = 1;
    public required int HoldSeconds { get; init; }
    public required int ConfirmSeconds { get; init; }
    public int CrossCheckConnections { get; init; } = 64;
    public int CrossCheckSeconds { get; init; } = 10;

    public static BenchProfile For(bool quick) => quick ? QuickProfile : DefaultProfile;

    private static readonly BenchProfile QuickProfile = new()
    {
        Quick = true,
        Locations = 10_000,
        Items = 50_000,
        ProbeSchedule = "const(64, 1s) const(0, 1s)",
        WarmupSeconds = 1, // right after a probe at full load: the code is hot, the pools open
        RampSeconds = 4,
        Repeats = 1,
        SearchSteps = 3,
        HoldSeconds = 2,
        ConfirmSeconds = 3,
        PrefillSchedule = "const(500, 1s)",
        PrefillCount = 500,
        QueueProbeDepth = 20_000,
        KvKeys = 2_000,
        ClusterWarmupSeconds = 2,
        AmmoCount = 5_000,
    };

    // 25 cells (10 author/item, 15 queue) of about 93 s each: probe 7 s, warm-up 2 s, a ramp of
    // 6 s, about 10 s of preparations; the first search three 3-s holds (from the ramp's estimate)
    // and a 15-s confirmation, each later one a single hold above the best confirmed rate and a
    // confirmation, each hold after 1 s unrecorded at its rate: about 40 minutes on 2 cores before
    // the holds held again and the confirmations retried 20 % lower (measured: OPERATIONS.md).
    private static readonly BenchProfile DefaultProfile = new()
    {
        Quick = false,
        Locations = 100_000,
        Items = 500_000,
        // The probe is a cell's first load: 6 s at full load (closed, so no backlog is left) bring
        // the service's code for the cell to its final tier and a server to steady state before
        // anything is measured, and C is the median of its inner seconds, on warm code. With 1 s the
        // first cell of a queue on a fresh server could be flagged cold.
        ProbeSchedule = "const(64, 6s) const(0, 1s)",
        // With 1 s a ramp's first seconds could still be cold (p99 several times the later seconds'); 2 s was not.
        WarmupSeconds = 2,
        RampSeconds = 6,
        Repeats = 3,
        SearchSteps = 3,
        HoldSeconds = 3,
        ConfirmSeconds = 15,
        PrefillSchedule = "const(1000, 5s)",
        PrefillCount = 5_000,
        QueueProbeDepth = 200_000, // the probe's 6 s at up to 25 000 reads/s must not run the queue dry
        KvKeys = 100_000,
        ClusterWarmupSeconds = 20,
        AmmoCount = 200_000,
    };

    /// <summary>The measured ramp's top for a probed capacity.</summary>
    public long RampTop(long capacity) => (long)(capacity * RampFactor);

    public string Warmup(long capacity) => $"line(1, {capacity}, {WarmupSeconds}s)";

    public string Ramp(long capacity) => $"line(1, {RampTop(capacity)}, {RampSeconds}s)";

    /// <summary>
    /// Messages a queue-read run's warm-up (the first repeat has one) and ramp can take (the areas
    /// under their lines) plus 20 %, so the queue never runs dry while measured.
    /// </summary>
    public long QueueReadsNeeded(long capacity, bool warmup = true) => ((warmup ? capacity * WarmupSeconds : 0) + RampTop(capacity) * RampSeconds) * 6 / 10 + 1000;

    /// <summary>Messages a constant hold takes, plus 20 %.</summary>
    public static long QueueReadsNeeded(long rate, int seconds) => rate * seconds * 12 / 10 + 1000;

    /// <summary>Unrecorded seconds at a hold's rate before it is measured (the previous hold's backlog drains).</summary>
    public int HoldWarmupSeconds { get; init; } = 1;

    /// <summary>Holds a repetition's search makes before its confirmation (retries aside).</summary>
    public int StepsOf(int repeat) => repeat == 1 ? SearchSteps : Math.Min(SearchSteps, LaterSearchSteps);

    /// <summary>
    /// The search of repetition <paramref name="repeat"/>. A later one trusts its start (one hold above
    /// it) only when an earlier repetition confirmed a rate (<paramref name="confirmedBefore"/>); after
    /// repetitions that confirmed nothing its start is still the ramp's estimate, which no hold has
    /// confirmed, so it searches in full like the first.
    /// </summary>
    public SearchPlan Search(double sloMs, int repeat = 1, bool confirmedBefore = true)
    {
        var trusted = repeat > 1 && confirmedBefore;
        return new(trusted ? StepsOf(repeat) : SearchSteps, HoldSeconds, ConfirmSeconds, sloMs, HoldWarmupSeconds, TrustHint: trusted, Headroom: SearchPlan.BenchHeadroom);
    }
}
