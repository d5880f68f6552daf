using Tank.Stats;

namespace Tank.Autostop;

/// <summary><c>limit(time)</c>: the test has run longer than the limit (Tank returns the time code).</summary>
public sealed class LimitCriterion(string text, long limitSeconds) : IAutostopCriterion
{
    public long LimitSeconds { get; } = limitSeconds;
    public int ExitCode => ExitCodes.Time;

    public bool Notify(SecondStats second, double elapsedSeconds) => elapsedSeconds > LimitSeconds;

    public string Explain() => $"{text}: test time limit of {LimitSeconds} s reached";
}
