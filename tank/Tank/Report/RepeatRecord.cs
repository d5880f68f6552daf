namespace Tank.Report;

/// <summary>One repeat of a cell's measured ramp (capacity.json): its "max rps @ SLO", p99 and achieved rate, and where its files are.</summary>
public sealed record RepeatRecord(int Repeat, double MaxRpsAtSlo, double P99Ms, double AchievedRps, string Dir);
