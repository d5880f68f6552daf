namespace Lab.Verdicts;

/// <summary>One architecture judged against a target.</summary>
public sealed record Candidate
{
    public required string Storage { get; init; }

    /// <summary>The capacity of its limiting cell (the lowest among the scenarios judged and measured); 0 when none was measured.</summary>
    public required double Capacity { get; init; }

    /// <summary>Capacity ÷ the target rate.</summary>
    public required double Headroom { get; init; }

    /// <summary>The capacity is a lower bound: the SLO still held at the ramp's top.</summary>
    public bool LowerBound { get; init; }

    /// <summary>Its limiting cell was searched and nothing was confirmed: no capacity or p99 to show.</summary>
    public bool NoneConfirmed { get; init; }

    /// <summary>A cell it was measured in most of whose repetitions held no confirmation: its capacity is a bound ("≤"), not a rate it holds.</summary>
    public bool NotEstablished { get; init; }

    public double? P99Ms { get; init; }

    /// <summary>CPU µs per request of the limiting cell (servers and service, not tank); null when not recorded.</summary>
    public double? CpuUsPerRequest { get; init; }

    /// <summary>"not required", "no loss (n runs)", "not measured", or the loss found; for failover also how long writes failed (median and max over its runs).</summary>
    public required string Durability { get; init; }

    /// <summary>Why it does not qualify; empty when it does.</summary>
    public required IReadOnlyList<string> Failures { get; init; }

    /// <summary>Scenarios judged that the report did not run for it.</summary>
    public int UnmeasuredScenarios { get; init; }

    public bool Qualifies => Failures.Count == 0;
}
