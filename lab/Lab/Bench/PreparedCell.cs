using Lab.Report;

namespace Lab.Bench;

/// <summary>
/// A cell between its preparation and its last repetition: where it runs and writes, its ammo, the
/// probe's capacity every repetition starts from, the repetitions and holds so far, and the
/// scratch folder (holds' raw results) removed with it.
/// </summary>
public sealed record PreparedCell(BenchCell Cell, BenchTarget Target, string OutDir, string Label, string AmmoFile, long Capacity, Workspace Work) : IDisposable
{
    public List<RepeatRecord> Repeats { get; } = [];
    public List<HoldRecord> Holds { get; } = [];
    /// <summary>Repetitions that could not run (a reset or a hold failed), each with why.</summary>
    public List<string> Failures { get; } = [];

    public void Dispose() => Work.Dispose();
}
