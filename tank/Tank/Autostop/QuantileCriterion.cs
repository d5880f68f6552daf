using Tank.Stats;

namespace Tank.Autostop;

/// <summary><c>quantile(q, rt, window)</c>: the q-th percentile of interval_real is above rt.</summary>
public sealed class QuantileCriterion(string text, double quantile, long limitMs, long window, string? tag)
    : WindowedCriterion(text, window, tag)
{
    public double Quantile { get; } = quantile;
    public long LimitMs { get; } = limitMs;
    public override int ExitCode => ExitCodes.Time;

    protected override bool Breaches(SecondStats second) => second.IntervalReal.Percentile(Quantile) / 1000.0 > LimitMs;
}
