namespace Crash.Rates;

/// <summary>A run's writes per second and where the figure came from (a result's <c>rate</c> and <c>rate_source</c>).</summary>
public sealed record RunRate(double Rate, string Source)
{
    /// <summary>True when the rate is a share of a bench report's confirmed capacity; false for the fixed rate (also where a report had no figure).</summary>
    public bool FromReport { get; init; }
    /// <summary>The bench report the run's rule read (a result's <c>rate_report</c>; also where the run fell back to the fixed rate); null without one.</summary>
    public string? Report { get; init; }
}
