namespace Lab.Report;

/// <summary>
/// One constant-rate hold of a capacity search (capacity.json): the rate, its length, p99 (from the
/// intended send time), errors, whether it held the SLO, whether it was a confirmation, which
/// repetition of the search it belongs to, and the requests sent later than the SLO.
/// </summary>
public sealed record HoldRecord(long Rate, double Seconds, double P99Ms, double ErrorRate, long Responses, bool Held, bool Confirmation, int Repeat = 1, long Late = 0);
