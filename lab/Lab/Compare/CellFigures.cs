using Tank.Ammo;

namespace Lab.Compare;

/// <summary>
/// What one report says about one cell (architecture × scenario), as <c>lab compare</c> and
/// <c>lab verdict</c> need it.
/// </summary>
public sealed record CellFigures
{
    public required string Storage { get; init; }
    public required string Scenario { get; init; }

    /// <summary>
    /// Requests per second at the SLO: the capacity of the bench's repetitions (their median, with its
    /// interval as the figure's spread) when the report has one, else max rps @ SLO.
    /// </summary>
    public required Figure Capacity { get; init; }

    /// <summary>Whether <see cref="Capacity"/> is summary.json's <c>confirmed_rps</c> (true) or its <c>max_sustained_rps</c>.</summary>
    public bool Confirmed { get; init; }

    /// <summary>The SLO still held at the ramp's top: the capacity is a lower bound.</summary>
    public bool LowerBound { get; init; }

    public required Figure P99Ms { get; init; }

    /// <summary>CPU µs per request of every accounted process but tank itself (the load generator); null when not recorded.</summary>
    public Figure? CpuUsPerRequest { get; init; }

    public double ErrorRate { get; init; }

    /// <summary>The repetitions spread beyond the bench profile's unstable_spread of their median; <see cref="UnstableBecause"/> says what was measured.</summary>
    public bool Unstable { get; init; }

    public IReadOnlyList<string> UnstableBecause { get; init; } = [];

    /// <summary>The bench's repetitions, and how many of them held a confirmation at their figure (0 and 0 for a report without them).</summary>
    public int Repetitions { get; init; }
    public int HeldRepetitions { get; init; }

    /// <summary>Most repetitions held a confirmation at their figure (or the report has none to tell): the capacity is a rate the stack held.</summary>
    public bool MostlyHeld => HeldInMost(HeldRepetitions, Repetitions);

    /// <summary>
    /// The one rule of report, chart, results page, verdict and compare: a capacity is established when
    /// a confirmation held in most of its repetitions (none recorded: nothing to tell, so it is).
    /// </summary>
    public static bool HeldInMost(int held, int repetitions) => repetitions == 0 || held * 2 > repetitions;

    public string Key => $"{Storage} · {Scenario}";
}
