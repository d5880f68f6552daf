using System.Text.Json;

namespace Tank.Report;

/// <summary>
/// <c>capacity.json</c> beside a run's meta.json, written by <c>tank bench</c>: the capacity at the
/// SLO found by constant-rate holds and confirmed by a longer one (<see cref="ConfirmedRps"/>, 0
/// when nothing held), every hold of the search, and the measured ramp's "max rps @ SLO" of each
/// repeat with their median and min–max. Absent for runs made otherwise.
/// </summary>
public sealed record CapacityFile
{
    public static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower, WriteIndented = true };

    public long ConfirmedRps { get; init; }
    public double? ConfirmedP99Ms { get; init; }
    public double ConfirmSeconds { get; init; }
    public IReadOnlyList<HoldRecord> Holds { get; init; } = [];
    /// <summary>The measured ramp of each repeat, the first being the run this file sits beside.</summary>
    public IReadOnlyList<RepeatRecord> Repeats { get; init; } = [];
    public double Median { get; init; }
    public Spread? Spread { get; init; }

    public static CapacityFile? TryRead(string runDir)
    {
        var path = Path.Combine(runDir, "capacity.json");
        if (!File.Exists(path)) return null;
        try { return JsonSerializer.Deserialize<CapacityFile>(File.ReadAllText(path), Json) ?? throw new JsonException("null instead of an object"); }
        catch (JsonException e) { throw new TankInputException(path, $"line {(e.LineNumber ?? 0) + 1}", $"not valid capacity.json: {e.Message}"); }
    }

    public void Write(string runDir) => File.WriteAllText(Path.Combine(runDir, "capacity.json"), JsonSerializer.Serialize(this, Json) + "\n");
}
