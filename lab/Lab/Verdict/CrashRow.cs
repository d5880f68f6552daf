namespace Lab.Verdicts;

/// <summary>
/// One run of the crash test (a <c>tank crash</c> result) as the verdict needs it. <paramref name="UnavailableS"/>:
/// seconds writes failed, from the first failed write to the first acknowledged one after the last
/// failure (0 when none failed); null when writes never came back, or the result does not say.
/// </summary>
public sealed record CrashRow(string Storage, string Kind, string Fault, string Label, long Acked, long Lost, long Stale, long Changed,
    long Unverified, long CacheDisagreements, bool ReadBackAnswered, double? UnavailableS = null)
{
    /// <summary>Every acknowledged write read back intact (none lost, stale, changed or unverified, no stale cache entry).</summary>
    public bool Clean => Acked > 0 && ReadBackAnswered && Lost + Stale + Changed + Unverified + CacheDisagreements == 0;

    /// <summary>Why the row is not clean, in words.</summary>
    public string Problem()
    {
        if (Acked == 0) return $"{Label}: no write acknowledged, nothing proven";
        if (!ReadBackAnswered) return $"{Label}: the API never answered the read-back";
        return $"{Label}: {Counts([this])} of {Acked} acknowledged";
    }

    /// <summary>
    /// Why the runs of one row (architecture, kind and fault) are not clean, in words: a run alone as <see cref="Problem"/>,
    /// several that lost or returned wrong values summed into one line (five failovers that each lost some writes are one
    /// finding, not five), a run that proved nothing or whose read-back never answered on its own line.
    /// </summary>
    public static IEnumerable<string> Problems(IReadOnlyList<CrashRow> runs)
    {
        var bad = runs.Where(r => !r.Clean).ToList();
        var counted = bad.Where(r => r.Acked > 0 && r.ReadBackAnswered).ToList();
        if (counted.Count < 2)
        {
            foreach (var r in bad) yield return r.Problem();
            yield break;
        }
        foreach (var r in bad.Except(counted)) yield return r.Problem();
        var first = counted[0];
        yield return $"{first.Storage} {first.Kind} {first.Fault}: {Counts(counted)} of {counted.Sum(r => r.Acked)} acknowledged, in {counted.Count} of {runs.Count} runs";
    }

    private static string Counts(IReadOnlyList<CrashRow> runs)
    {
        var parts = new List<string>();
        void Add(long n, string what) { if (n > 0) parts.Add($"{n} {what}"); }
        Add(runs.Sum(r => r.Lost), "lost");
        Add(runs.Sum(r => r.Stale), "stale");
        Add(runs.Sum(r => r.Changed), "changed");
        Add(runs.Sum(r => r.Unverified), "unverified");
        Add(runs.Sum(r => r.CacheDisagreements), "stale in the cache");
        return string.Join(", ", parts);
    }
}
