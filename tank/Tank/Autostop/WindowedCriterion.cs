using Tank.Stats;

namespace Tank.Autostop;

/// <summary>
/// The shape shared by Tank's quantile/time/http/net criteria: a second either breaches or not;
/// the criterion fires after <c>window</c> consecutive breaching seconds; a good second resets it.
/// </summary>
public abstract class WindowedCriterion(string text, long windowSeconds, string? tag) : IAutostopCriterion
{
    private long _breaching;

    public abstract int ExitCode { get; }
    public string Text { get; } = text;
    public long WindowSeconds { get; } = windowSeconds;
    public string? Tag { get; } = tag;

    public bool Notify(SecondStats second, double elapsedSeconds)
    {
        var stats = Tag is null ? second : second.Tagged.GetValueOrDefault(Tag);
        _breaching = stats is not null && Breaches(stats) ? _breaching + 1 : 0;
        return _breaching >= WindowSeconds;
    }

    protected abstract bool Breaches(SecondStats second);

    public string Explain() => $"{Text}: breached for {_breaching} s in a row";
}
