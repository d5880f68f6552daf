using Harness.Processes;
using System.Globalization;
using Crash.Control;

namespace Crash.Cluster;

/// <summary>
/// script/cluster, which starts and stops the nodes and their stores: crash brings a cluster up per
/// architecture, reads the node pids from it, and takes it down again (also when interrupted).
/// </summary>
internal sealed class ClusterScript(string script)
{
    /// <summary><c>script/cluster up</c>; throws if it failed. Until <see cref="Down"/> a Ctrl-C takes the cluster down too.</summary>
    public IDisposable Up(int nodes, string storage, int port)
    {
        var atExit = ExitCleanup.Register(Down);
        if (ProcessRunner.ToStderr(script, ["up", "--nodes", N(nodes), "--storage", storage, "--port", N(port)]) != 0)
        {
            Down();
            atExit.Dispose();
            throw new InvalidOperationException($"{script} up --nodes {nodes} --storage {storage} --port {port} failed");
        }
        return new Stack(this, atExit);
    }

    /// <summary>Each node's pid by index, from <c>script/cluster pids</c> (<c>node0=PID</c>, …; its stores' lines are left out).</summary>
    public IReadOnlyDictionary<int, int> NodePids() =>
        ProcessRunner.Checked(script, ["pids"], CancellationToken.None).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split('=', 2))
            .Where(p => p.Length == 2 && p[0].StartsWith("node", StringComparison.Ordinal) && int.TryParse(p[0][4..], NumberStyles.None, CultureInfo.InvariantCulture, out _))
            .ToDictionary(p => int.Parse(p[0][4..], CultureInfo.InvariantCulture), p => int.Parse(p[1], CultureInfo.InvariantCulture));

    public void Down() => ProcessRunner.ToStderr(script, ["down"]);

    private static string N(int value) => value.ToString(CultureInfo.InvariantCulture);

    private sealed class Stack(ClusterScript cluster, IDisposable atExit) : IDisposable
    {
        public void Dispose()
        {
            cluster.Down();
            atExit.Dispose();
        }
    }
}
