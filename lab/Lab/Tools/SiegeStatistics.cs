namespace Lab.Tools;

/// <summary>
/// siege's closing statistics, as printed (null for a line it did not print). Decimals keep
/// siege's own figures digit for digit (<c>100.00</c> stays <c>100.00</c> in the table).
/// </summary>
public sealed record SiegeStatistics(
    long? Transactions,
    decimal? Availability,
    decimal? ElapsedSeconds,
    decimal? Rate,
    long? Successful,
    long? Failed,
    decimal? LongestSeconds,
    bool Aborted)
{
    /// <summary>Whether siege printed its statistics at all (a run killed before its end did not).</summary>
    public bool Printed => Transactions is not null && Failed is not null;
}
