namespace Crash.Rates;

/// <summary>A run's writes per second and where the figure came from (a result's <c>rate</c> and <c>rate_source</c>).</summary>
public sealed record RunRate(double Rate, string Source)
{
    /// <summary>False when a bench report was named but had no confirmed figure for the run (the fixed rate stood in).</summary>
    public bool FromReport { get; init; }
}
