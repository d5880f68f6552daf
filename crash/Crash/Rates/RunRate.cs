namespace Crash.Rates;

/// <summary>A run's writes per second and where the figure came from (a result's <c>rate</c> and <c>rate_source</c>).</summary>
public sealed record RunRate(double Rate, string Source)
{
    /// <summary>True when the rate is a share of a bench report's confirmed capacity; false for the fixed rate (also where a report had no figure).</summary>
    public bool FromReport { get; init; }
}
