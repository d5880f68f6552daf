namespace Lab.Bench;

/// <summary>
/// One repetition's outcome (<see cref="CapacityCurve"/>): every step in order, the capacity read off
/// them (<see cref="Rps"/>, 0 only when every step failed by errors) and what kind of figure it is,
/// the bracket (the rate a confirmation held, none when none did, and the lowest rate above it that
/// did not hold, step or confirmation), and the confirmation at <see cref="Rps"/> with whether it held.
/// </summary>
public sealed record CurveResult(IReadOnlyList<Hold> Steps, long Rps, EstimateKind Kind, long? HeldRps, long? FailedRps, Hold? Confirmation)
{
    public bool Confirmed { get; init; }

    /// <summary>The crossing read off the steps alone, before a failed confirmation moved it.</summary>
    public long StepsRps { get; init; }

    /// <summary>Every confirmation in order: the first at <see cref="StepsRps"/>, each next one at the last ÷ confirm_backoff.</summary>
    public IReadOnlyList<Hold> Confirmations { get; init; } = [];
}
