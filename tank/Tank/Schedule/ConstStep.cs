namespace Tank.Schedule;

/// <summary><c>const(r, d)</c>: floor(r·d) requests at floor(i·1000/r) ms.</summary>
public sealed class ConstStep(double rps, long durationMs) : ILoadStep
{
    public double Rps { get; } = rps;
    public long DurationMs { get; } = durationMs;

    // Same double arithmetic and evaluation order as Tank's Const.__iter__, so rounding matches.
    public long Count => Rps == 0 ? 0 : (long)(Rps * DurationMs / 1000.0);

    public IEnumerable<long> Timestamps()
    {
        if (Rps == 0) yield break;
        var interval = 1000.0 / Rps;
        for (long i = 0; i < Count; i++) yield return (long)(i * interval);
    }

    public double RateAt(double seconds) => seconds >= 0 && seconds * 1000 <= DurationMs ? Rps : 0;

    public override string ToString() => $"const({Rps}, {DurationMs / 1000}s)";
}
