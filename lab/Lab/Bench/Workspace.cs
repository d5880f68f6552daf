namespace Lab.Bench;

/// <summary>A scratch directory for a step's unrecorded files (prefills, probes), removed when disposed.</summary>
public sealed class Workspace : IDisposable
{
    public string Dir { get; } = Directory.CreateTempSubdirectory("tank-bench-").FullName;

    public string this[string name] => Path.Combine(Dir, name);

    public void Dispose()
    {
        try { Directory.Delete(Dir, recursive: true); }
        catch (IOException) { } // a leftover in /tmp is not worth failing a finished run over
    }
}
