using System.Globalization;

namespace Lab.Cluster;

/// <summary>
/// What <c>lab cluster up</c> started, kept in <c>$DATA_DIR/cluster/cluster.env</c> (name=value
/// lines, as script/cluster wrote them) for <c>down</c>, <c>status</c> and <c>pids</c>.
/// </summary>
public sealed record ClusterState(int Nodes, string Storage, string Server, int Port)
{
    public string Format() =>
        string.Create(CultureInfo.InvariantCulture, $"nodes={Nodes}\nstorage={Storage}\nserver={Server}\nport={Port}\n");

    /// <summary>The file's one-line summary, as the "already up" error shows it.</summary>
    public static string Describe(string text) => text.ReplaceLineEndings(" ");

    public static ClusterState Parse(string text)
    {
        var values = text.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split('=', 2))
            .Where(pair => pair.Length == 2)
            .ToDictionary(pair => pair[0], pair => pair[1]);
        string Value(string key) => values.TryGetValue(key, out var value) ? value : throw new FormatException($"the cluster's state has no {key}=");
        int Number(string key) => int.TryParse(Value(key), NumberStyles.None, CultureInfo.InvariantCulture, out var n)
            ? n
            : throw new FormatException($"the cluster's state has {key}={Value(key)}, not a number");
        return new ClusterState(Number("nodes"), Value("storage"), Value("server"), Number("port"));
    }

    /// <summary>The state of the cluster that is up, or null when none is.</summary>
    public static ClusterState? Read(string file) => File.Exists(file) ? Parse(File.ReadAllText(file)) : null;
}
