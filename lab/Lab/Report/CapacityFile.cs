using System.Text.Json;
using System.Text.Json.Serialization;
using Harness.CommandLine;

namespace Lab.Report;

/// <summary>
/// <c>capacity.json</c> beside a run's meta.json, written by <c>lab bench</c>: the cell's capacity at
/// the SLO from its independent repetitions (<see cref="Repeats"/>, each read off its own
/// constant-rate steps and confirmed by a longer hold), every hold in <see cref="Holds"/>.
/// <see cref="ConfirmedRps"/> is the median of the repetitions' figures, <see cref="Interval"/> its
/// uncertainty (<see cref="CellInterval"/>), <see cref="Spread"/> their min–max; a spread over the
/// profile's unstable_spread of the median labels the cell <see cref="Unstable"/> with the causes
/// measured. Absent for runs made otherwise.
/// </summary>
public sealed record CapacityFile
{
    public static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower, WriteIndented = true };

    /// <summary>The cell's capacity: the median of its repetitions' figures (0 only when they answered errors).</summary>
    public long ConfirmedRps { get; init; }
    /// <summary>The p99 of the confirmation of the repetition whose figure is the median (the lower middle one of an even count).</summary>
    public double? ConfirmedP99Ms { get; init; }
    /// <summary>Median CPU µs per answer of the service and servers over each repetition's holds; null when not accounted.</summary>
    public double? ConfirmedCpuUsPerRequest { get; init; }
    public double ConfirmSeconds { get; init; }
    public IReadOnlyList<HoldRecord> Holds { get; init; } = [];
    /// <summary>Each repetition, in order.</summary>
    public IReadOnlyList<RepeatRecord> Repeats { get; init; } = [];
    public double Median { get; init; }
    public Spread? Spread { get; init; }
    public CellInterval? Interval { get; init; }
    /// <summary>Every repetition's steps held up to the highest rate tried: the capacity is a lower bound.</summary>
    public bool LowerBound { get; init; }
    /// <summary>Repetitions whose confirmation held at their own figure.</summary>
    public int ConfirmedCount { get; init; }
    public bool Unstable { get; init; }
    /// <summary>What the run measured that explains the spread; empty when stable.</summary>
    public IReadOnlyList<string> UnstableBecause { get; init; } = [];
    /// <summary>The confirmations' seconds over the SLO, summed, and the longest run of them: the stack's stalls.</summary>
    public int StallSeconds { get; init; }
    public int LongestStallSeconds { get; init; }
    /// <summary>Holds run again (disturbed, or the generator behind), over all repetitions.</summary>
    public int Reruns { get; init; }
    /// <summary>Repetitions that could not run (a reset or a hold failed), each with why: the cell is then unstable.</summary>
    public IReadOnlyList<string> FailedRepetitions { get; init; } = [];
    /// <summary>Files of the method before independent repetitions have false: their repeats are confirmations of a ladder.</summary>
    public bool RepeatsConfirmed { get; init; }

    /// <summary>The repetitions' figures, min–max; null for an older file whose repeats were ramps.</summary>
    public Spread? ConfirmedSpread => RepeatsConfirmed ? Spread : null;

    /// <summary>Each repetition; empty for an older file whose repeats were ramps.</summary>
    public IReadOnlyList<RepeatRecord> Confirmations => RepeatsConfirmed ? Repeats : [];

    /// <summary>
    /// A confirmation held in most repetitions (the verdict's rule): otherwise the median is of rates
    /// none of whose confirmations held, a bound and not a rate the stack holds. A cell that answered
    /// only errors (0) and an older file without confirmations count as established.
    /// </summary>
    [JsonIgnore]
    public bool Established => ConfirmedRps == 0 || Lab.Compare.CellFigures.HeldInMost(Confirmations.Count(r => r.Confirmed), Confirmations.Count);

    /// <summary>The file for these repetitions: median, interval, spread, stability and its causes.</summary>
    public static CapacityFile Of(IReadOnlyList<RepeatRecord> repeats, IReadOnlyList<HoldRecord> holds, double confirmSeconds, double unstableSpread = 0.15, IReadOnlyList<string>? failed = null)
    {
        failed ??= [];
        var rates = repeats.Select(r => (double)r.Rps).ToList();
        var median = MedianOf(rates);
        var middle = repeats.OrderBy(r => r.Rps).ElementAtOrDefault((repeats.Count - 1) / 2);
        var cpu = repeats.Where(r => r.CpuUsPerRequest is not null).Select(r => r.CpuUsPerRequest!.Value).ToList();
        var spread = rates.Count == 0 ? null : new Spread(rates.Min(), rates.Max());
        var unstable = failed.Count > 0 || spread is not null && repeats.Count > 1 && (median <= 0 ? spread.Max > 0 : (spread.Max - spread.Min) / median > unstableSpread);
        return new CapacityFile
        {
            ConfirmedRps = (long)Math.Round(median),
            ConfirmedP99Ms = middle?.ConfirmedP99Ms,
            ConfirmedCpuUsPerRequest = cpu.Count > 0 ? Math.Round(MedianOf(cpu), 2) : null,
            ConfirmSeconds = confirmSeconds,
            Holds = holds,
            Repeats = repeats,
            Median = median,
            Spread = spread,
            Interval = CellInterval.Of(repeats),
            LowerBound = repeats.Count > 0 && repeats.All(r => r.LowerBound),
            ConfirmedCount = repeats.Count(r => r.Confirmed),
            Unstable = unstable,
            UnstableBecause = unstable ? [.. failed, .. InstabilityCauses.Of(repeats, holds)] : [],
            FailedRepetitions = failed,
            StallSeconds = repeats.Sum(r => r.StallSeconds),
            LongestStallSeconds = repeats.Select(r => r.LongestStallSeconds).DefaultIfEmpty(0).Max(),
            Reruns = repeats.Sum(r => r.Reruns),
            RepeatsConfirmed = true,
        };
    }

    public static double MedianOf(IEnumerable<double> values) => Harness.Statistics.Median(values);

    public static CapacityFile? TryRead(string runDir)
    {
        var path = Path.Combine(runDir, "capacity.json");
        if (!File.Exists(path)) return null;
        try { return JsonSerializer.Deserialize<CapacityFile>(File.ReadAllText(path), Json) ?? throw new JsonException("null instead of an object"); }
        catch (JsonException e) { throw new InputException(path, $"line {(e.LineNumber ?? 0) + 1}", $"not valid capacity.json: {e.Message}"); }
    }

    public void Write(string runDir) => File.WriteAllText(Path.Combine(runDir, "capacity.json"), JsonSerializer.Serialize(this, Json) + "\n");
}
