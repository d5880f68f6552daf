using System.Globalization;
using Lab.Report;

namespace Lab.Verdicts;

/// <summary>
/// How long writes failed in an architecture's failover runs (the crash test's <c>unavailable_s</c>).
/// A run whose writes never came back (no figure) counts as unbounded: the worst, and over any bound.
/// </summary>
public static class Unavailability
{
    /// <summary>"unavailable median 3.4 s, max 4.1 s" over the runs.</summary>
    public static string Cell(IReadOnlyList<CrashRow> rows)
    {
        var seconds = rows.Select(Seconds).ToList();
        return $"unavailable median {S(CapacityFile.MedianOf(seconds))}, max {S(seconds.Max())}";
    }

    /// <summary>Each run whose writes failed for longer than <paramref name="maxS"/> seconds, or never came back, in words.</summary>
    public static IEnumerable<string> Over(IReadOnlyList<CrashRow> rows, double maxS) =>
        rows.Where(r => Seconds(r) > maxS).Select(r => r.UnavailableS is { } s
            ? $"{r.Label}: writes failed for {S(s)}, more than {S(maxS)}"
            : $"{r.Label}: writes never came back (unavailable_s null or absent)");

    /// <summary>Seconds as the verdict prints them: "4.1 s", "5 s"; "never back" for an unbounded run.</summary>
    public static string S(double seconds) =>
        double.IsPositiveInfinity(seconds) ? "never back" : seconds.ToString("0.##", CultureInfo.InvariantCulture) + " s";

    private static double Seconds(CrashRow row) => row.UnavailableS ?? double.PositiveInfinity;
}
