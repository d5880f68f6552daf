namespace Lab.Report;

/// <summary>
/// One repetition of a cell's capacity search (capacity.json): the rate it confirmed (0: nothing
/// held for the confirmation's length), the confirming hold's p99, and whether no hold of it
/// failed (its rate is then a lower bound: the search never found the limit), and the CPU µs the
/// service and servers spent per answer during the confirming hold (null when not accounted).
/// </summary>
public sealed record RepeatRecord(int Repeat, long ConfirmedRps, double? ConfirmedP99Ms, bool LowerBound = false, double? CpuUsPerRequest = null);
