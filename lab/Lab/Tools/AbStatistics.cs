namespace Lab.Tools;

/// <summary>
/// ApacheBench's figures for one run, as printed (null for a line it did not print): requests
/// per second, the mean time per request (the per-connection one, not "across all concurrent
/// requests"), the longest request, failed requests and non-2xx answers (ab counts those apart).
/// </summary>
public sealed record AbStatistics(decimal? RequestsPerSecond, decimal? MeanMs, long? LongestMs, long? Failed, long? Non2xx)
{
    /// <summary>Whether ab printed its results (it prints none when it gives up, e.g. on a refused connection).</summary>
    public bool Printed => RequestsPerSecond is not null && Failed is not null;

    /// <summary>Requests that did not get a 2xx answer: ab's failed requests and its non-2xx responses.</summary>
    public long? Unsuccessful => Failed + (Non2xx ?? 0);
}
