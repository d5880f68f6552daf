namespace Lab.Bench;

/// <summary>What a repetition's capacity is: the SLO crossing, or only a bound on it.</summary>
public enum EstimateKind
{
    /// <summary>Between a step that held and one that did not.</summary>
    Crossing,
    /// <summary>Every step held: the capacity is at least the highest rate tried.</summary>
    AtLeast,
    /// <summary>No step held, without errors: the capacity is below the lowest rate tried.</summary>
    AtMost,
    /// <summary>Every step failed by errors: no capacity (0).</summary>
    Errors,
}
