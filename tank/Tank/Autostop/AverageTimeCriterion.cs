using Tank.Stats;

namespace Tank.Autostop;

/// <summary><c>time(rt, window)</c>: the average interval_real of the second is above rt.</summary>
public sealed class AverageTimeCriterion(string text, long limitMs, long window, string? tag)
    : WindowedCriterion(text, window, tag)
{
    public long LimitMs { get; } = limitMs;
    public override int ExitCode => ExitCodes.Time;

    protected override bool Breaches(SecondStats second) => second.IntervalReal.Mean / 1000.0 > LimitMs;
}
