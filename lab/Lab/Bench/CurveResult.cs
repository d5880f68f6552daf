namespace Lab.Bench;

/// <summary>
/// One repetition's outcome (<see cref="CapacityCurve"/>): every step in order, the capacity read off
/// them (<see cref="Rps"/>, 0 only when every step failed by errors) and what kind of figure it is,
/// the bracket (the highest rate that held, the lowest that did not), and the confirmation at
/// <see cref="Rps"/> with whether it held.
/// </summary>
public sealed record CurveResult(IReadOnlyList<Hold> Steps, long Rps, EstimateKind Kind, long? HeldRps, long? FailedRps, Hold? Confirmation)
{
    public bool Confirmed { get; init; }
}
