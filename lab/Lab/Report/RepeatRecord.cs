namespace Lab.Report;

/// <summary>
/// One repetition of a cell (capacity.json): its place in its round's shuffled order, the capacity
/// read off its steps (<see cref="Rps"/>; 0 only when every step failed by errors) and what kind of
/// figure it is (crossing, at_least, at_most, errors), the bracket around it, the confirmations that
/// failed before the one that decided the figure, that confirmation (held or not, with that hold's own p99, p99 per window and the seconds over the SLO), each process's
/// CPU µs per answer over this repetition's holds, the state it started from, and the holds run again.
/// </summary>
public sealed record RepeatRecord(int Repeat, long Rps, double? ConfirmedP99Ms, double? CpuUsPerRequest = null)
{
    public int Order { get; init; }
    public string Kind { get; init; } = "crossing";
    /// <summary>Every step held: the figure is a lower bound (<see cref="Kind"/> at_least).</summary>
    public bool LowerBound => Kind == "at_least";
    public long? HeldRps { get; init; }
    public long? FailedRps { get; init; }
    public bool Confirmed { get; init; }
    /// <summary>The crossing read off the steps alone; differs from <see cref="Rps"/> when a confirmation failed there.</summary>
    public long StepsRps { get; init; }
    /// <summary>The confirmations before the one that decided <see cref="Rps"/> (each failed), in order; empty when the first decided.</summary>
    public IReadOnlyList<ConfirmationTry> EarlierConfirmations { get; init; } = [];
    public IReadOnlyList<double> WindowP99Ms { get; init; } = [];
    public int StallSeconds { get; init; }
    public int LongestStallSeconds { get; init; }
    public double ConfirmSeconds { get; init; }
    public IReadOnlyDictionary<string, double> ProcessCpuUsPerRequest { get; init; } = new Dictionary<string, double>();
    public ResetRecord? Reset { get; init; }
    public int Reruns { get; init; }
}

/// <summary>A confirmation that failed before the one that decided a repetition's figure: its rate and p99.</summary>
public sealed record ConfirmationTry(long Rps, double P99Ms);
