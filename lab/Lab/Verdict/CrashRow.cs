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
        var parts = new List<string>();
        if (Lost > 0) parts.Add($"{Lost} lost");
        if (Stale > 0) parts.Add($"{Stale} stale");
        if (Changed > 0) parts.Add($"{Changed} changed");
        if (Unverified > 0) parts.Add($"{Unverified} unverified");
        if (CacheDisagreements > 0) parts.Add($"{CacheDisagreements} stale in the cache");
        return $"{Label}: {string.Join(", ", parts)} of {Acked} acknowledged";
    }
}
