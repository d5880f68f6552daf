using System.Globalization;

namespace Lab.Report;

/// <summary>
/// What a run measured that explains why a cell's repetitions spread: confirmations that failed,
/// stalls inside them, the service's own GC pauses, Redis forking in a confirmation, holds disturbed by other processes or run again, the generator behind, a
/// repetition that began before the machine was idle, figures that are only bounds. "not found" when
/// none of these was seen: the spread is then the stack's or the machine's own noise.
/// </summary>
public static class InstabilityCauses
{
    public static IReadOnlyList<string> Of(IReadOnlyList<RepeatRecord> repeats, IReadOnlyList<HoldRecord> holds)
    {
        var causes = new List<string>();
        var failed = repeats.Where(r => !r.Confirmed).Select(r => r.Repeat).ToList();
        if (failed.Count > 0) causes.Add($"confirmation failed in repetition {string.Join(", ", failed)}");
        var stalled = repeats.Where(r => r.StallSeconds > 0).ToList();
        if (stalled.Count > 0)
            causes.Add($"stalls (seconds with p99 over the SLO) in {stalled.Count} confirmation(s), longest {stalled.Max(r => r.LongestStallSeconds)} s");
        var foreign = holds.Where(h => h.ForeignCores is > 0).Select(h => h.ForeignCores!.Value).DefaultIfEmpty(0).Max();
        if (foreign >= 0.1) causes.Add(string.Create(CultureInfo.InvariantCulture, $"other processes took up to {foreign:0.##} cores during a hold"));
        // Our own service's stop-the-world pauses, told apart from the stack's: a pause as long as a
        // 10-ms SLO delays every request behind it past the SLO.
        var gc = holds.Where(h => h.Confirmation).Select(h => h.ServiceGcPauseMs ?? 0).DefaultIfEmpty(0).Max();
        if (gc >= 10) causes.Add(string.Create(CultureInfo.InvariantCulture, $"the service's garbage collector paused it up to {gc:0} ms in a confirmation"));
        // The stack's own: Redis forking for a snapshot or an AOF rewrite stops it for the fork and shares the cores with the child.
        var forked = holds.Where(h => h.Confirmation && h.ServerForks > 0).ToList();
        if (forked.Count > 0)
            causes.Add(string.Create(CultureInfo.InvariantCulture, $"Redis forked (a snapshot or an AOF rewrite) during {forked.Count} confirmation(s), {forked.Sum(h => h.ServerForks)} time(s) in all") +
                       (forked.Max(h => h.LongestForkMs) is { } fork ? string.Create(CultureInfo.InvariantCulture, $", a fork blocking it up to {fork:0.#} ms") : ""));
        var reruns = repeats.Sum(r => r.Reruns);
        if (reruns > 0) causes.Add($"{reruns} hold(s) run again");
        if (holds.Any(h => h.GeneratorBehind)) causes.Add("the generator fell behind in a hold");
        var restless = repeats.Where(r => r.Reset is { Idle: false }).Select(r => r.Repeat).ToList();
        if (restless.Count > 0) causes.Add($"the machine was not idle when repetition {string.Join(", ", restless)} began");
        var bounds = repeats.Where(r => r.Kind != "crossing").Select(r => $"{r.Repeat} ({r.Kind.Replace('_', ' ')})").ToList();
        if (bounds.Count > 0) causes.Add($"repetition {string.Join(", ", bounds)} is a bound, not a crossing");
        if (causes.Count == 0) causes.Add("not found among failed confirmations, stalls, GC pauses, Redis forks, other processes, reruns, the generator and rest");
        return causes;
    }
}
