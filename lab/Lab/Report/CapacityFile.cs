using System.Text.Json;
using Harness.CommandLine;

namespace Lab.Report;

/// <summary>
/// <c>capacity.json</c> beside a run's meta.json, written by <c>lab bench</c>: the capacity at the
/// SLO found by constant-rate holds and confirmed by a longer one, once per repetition
/// (<see cref="Repeats"/>); <see cref="ConfirmedRps"/> is the median of the repetitions' confirmed
/// rates (0 when nothing held), <see cref="Spread"/> their min–max, <see cref="ConfirmedP99Ms"/> the
/// median p99 of their confirming holds; every hold of every search is in <see cref="Holds"/>.
/// Absent for runs made otherwise.
/// </summary>
public sealed record CapacityFile
{
    public static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower, WriteIndented = true };

    public long ConfirmedRps { get; init; }
    public double? ConfirmedP99Ms { get; init; }
    /// <summary>Median CPU µs per answer (service and servers) over the confirming holds; null when not accounted.</summary>
    public double? ConfirmedCpuUsPerRequest { get; init; }
    public double ConfirmSeconds { get; init; }
    /// <summary>The share of the SLO a search hold's p99 had to stay under (files before this field: 0.8).</summary>
    public double SearchHeadroom { get; init; } = 0.8;
    public IReadOnlyList<HoldRecord> Holds { get; init; } = [];
    /// <summary>Each repetition's confirmed capacity, in order.</summary>
    public IReadOnlyList<RepeatRecord> Repeats { get; init; } = [];
    public double Median { get; init; }
    public Spread? Spread { get; init; }
    /// <summary>No hold of any repetition failed: the confirmed rate is a lower bound, not the limit.</summary>
    public bool LowerBound { get; init; }
    /// <summary>
    /// The repeats are confirmations (true in every file written since); older files repeated the
    /// ramp, and their repeats and spread are no spread of the confirmed rate.
    /// </summary>
    public bool RepeatsConfirmed { get; init; }

    /// <summary>The repetitions' confirmed rates, min–max; null for a file whose repeats were ramps.</summary>
    public Spread? ConfirmedSpread => RepeatsConfirmed ? Spread : null;

    /// <summary>Each repetition's confirmation; empty for a file whose repeats were ramps.</summary>
    public IReadOnlyList<RepeatRecord> Confirmations => RepeatsConfirmed ? Repeats : [];

    /// <summary>The file for these repetitions: the median and min–max of their confirmed rates.</summary>
    public static CapacityFile Of(IReadOnlyList<RepeatRecord> repeats, IReadOnlyList<HoldRecord> holds, double confirmSeconds, double searchHeadroom)
    {
        var rates = repeats.Select(r => (double)r.ConfirmedRps).ToList();
        var p99s = repeats.Where(r => r.ConfirmedRps > 0 && r.ConfirmedP99Ms is not null).Select(r => r.ConfirmedP99Ms!.Value).ToList();
        var median = MedianOf(rates);
        var cpu = repeats.Where(r => r.ConfirmedRps > 0 && r.CpuUsPerRequest is not null).Select(r => r.CpuUsPerRequest!.Value).ToList();
        return new CapacityFile
        {
            ConfirmedRps = (long)Math.Round(median),
            ConfirmedP99Ms = median > 0 && p99s.Count > 0 ? Math.Round(MedianOf(p99s), 3) : null,
            ConfirmedCpuUsPerRequest = cpu.Count > 0 ? Math.Round(MedianOf(cpu), 2) : null,
            ConfirmSeconds = confirmSeconds,
            SearchHeadroom = searchHeadroom,
            Holds = holds,
            Repeats = repeats,
            Median = median,
            Spread = rates.Count == 0 ? null : new Spread(rates.Min(), rates.Max()),
            LowerBound = repeats.Count > 0 && repeats.All(r => r.LowerBound),
            RepeatsConfirmed = true,
        };
    }

    public static double MedianOf(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        if (sorted.Count == 0) return 0;
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
    }

    public static CapacityFile? TryRead(string runDir)
    {
        var path = Path.Combine(runDir, "capacity.json");
        if (!File.Exists(path)) return null;
        try { return JsonSerializer.Deserialize<CapacityFile>(File.ReadAllText(path), Json) ?? throw new JsonException("null instead of an object"); }
        catch (JsonException e) { throw new InputException(path, $"line {(e.LineNumber ?? 0) + 1}", $"not valid capacity.json: {e.Message}"); }
    }

    public void Write(string runDir) => File.WriteAllText(Path.Combine(runDir, "capacity.json"), JsonSerializer.Serialize(this, Json) + "\n");
}
