namespace Lab.Report;

/// <summary>One second of a run: answered and planned rate, latency quantiles (ms), errors.</summary>
public sealed record SecondPoint(long Second, long Responses, double PlannedRps, double P50Ms, double P90Ms, double P99Ms, double MaxMs, long Errors);
