using Lab.Report;

using Harness.CommandLine;
using Tank.Ammo;

namespace Crash.Rates;

/// <summary>
/// The confirmed capacities of a <c>lab bench</c> report, read as the lab's report reads them: its
/// cells (<see cref="ReportInput"/>, a cluster's as <c>&lt;store&gt; ×N</c>) and each cell's
/// capacity.json (<see cref="CapacityFile.ConfirmedRps"/>, the median of the repetitions'
/// confirmed rates; 0 when nothing held).
/// </summary>
public sealed class BenchCapacities
{
    private readonly Dictionary<(string Storage, string Scenario), long> _confirmed;

    private BenchCapacities(string directory, string name, Dictionary<(string, string), long> confirmed) => (Directory, Name, _confirmed) = (directory, name, confirmed);

    /// <summary>The report's folder, a full path.</summary>
    public string Directory { get; }
    /// <summary>The folder as results name it: relative to the checkout when inside it (reports/&lt;STAMP&gt;, as docs/RESULTS.md names it), else its full path.</summary>
    public string Name { get; }

    /// <summary>
    /// Reads every cell of <paramref name="directory"/> (named relative to <paramref name="root"/>, the
    /// checkout, when inside it); a missing folder, a report without any capacity.json or a malformed
    /// file is bad input naming the file.
    /// </summary>
    public static BenchCapacities Load(string directory, string? root = null)
    {
        directory = Path.GetFullPath(directory);
        var input = ReportInput.Discover(directory);
        var cells = input.Runs.Select(r => (r.Storage, r.Scenario, Capacity: CapacityFile.TryRead(r.Dir))).ToList();
        if (cells.All(c => c.Capacity is null))
            throw new InputException(Path.Combine(directory, "runs"), "capacity.json", "no cell has one: not a report of lab bench");
        var confirmed = cells.Where(c => c.Capacity is { ConfirmedRps: > 0 })
            .GroupBy(c => (c.Storage, c.Scenario))
            .ToDictionary(g => g.Key, g => g.First().Capacity!.ConfirmedRps);
        return new BenchCapacities(directory, NameOf(directory, root), confirmed);
    }

    private static string NameOf(string directory, string? root)
    {
        if (root is null) return directory;
        var relative = Path.GetRelativePath(Path.GetFullPath(root), directory);
        return relative.StartsWith("..", StringComparison.Ordinal) || Path.IsPathRooted(relative) ? directory : relative;
    }

    /// <summary>The cell's confirmed rate in requests a second; null when the report has no such cell or it confirmed nothing.</summary>
    public long? Confirmed(string storage, string scenario) => _confirmed.TryGetValue((storage, scenario), out var rps) ? rps : null;
}
