namespace Lab.Report;

/// <summary>One operation (phout tag) of a run: its requests, errors and latencies.</summary>
public sealed record OperationStats(string Tag, long Requests, long Errors, double MeanMs, double P50Ms, double P99Ms);
