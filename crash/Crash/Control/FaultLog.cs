namespace Crash.Control;

/// <summary>
/// Where a fault writes what it does (the file whose tail the result keeps as <c>fault_stderr_tail</c>):
/// its own lines, and the output of the programs it runs.
/// </summary>
internal sealed class FaultLog(string path)
{
    public string Path { get; } = path;

    /// <summary>Appends <c>==&gt; fault: TEXT</c>, as script/crashtest's faults logged.</summary>
    public void Line(string text) => File.AppendAllText(Path, $"==> fault: {text}\n");
}
