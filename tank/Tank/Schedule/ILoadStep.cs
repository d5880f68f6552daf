namespace Tank.Schedule;

/// <summary>One step of a Tank schedule (const, line or step), stepped exactly as Tank's load_plan.py.</summary>
public interface ILoadStep
{
    /// <summary>Step length in milliseconds; the step lasts this long even if it sends nothing.</summary>
    long DurationMs { get; }

    /// <summary>Number of requests (or instance starts) in the step.</summary>
    long Count { get; }

    /// <summary>Offsets in ms from the step's start, non-decreasing.</summary>
    IEnumerable<long> Timestamps();

    /// <summary>Planned rate at <paramref name="seconds"/> after the step's start (for charts).</summary>
    double RateAt(double seconds);
}
