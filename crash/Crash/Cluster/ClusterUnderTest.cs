using System.Globalization;
using Crash.Control;
using Lab.Cluster;

namespace Crash.Cluster;

/// <summary>
/// The sharded cluster of a checkout, run in this process by the lab's <see cref="LocalCluster"/> (what
/// script/cluster runs): crash brings a cluster up per architecture, reads the node pids from it, and
/// takes it down again (also when interrupted).
/// </summary>
internal sealed class ClusterUnderTest(string root)
{
    // From the environment script/crashtest sets up (DATA_DIR, PG_BIN, the ports), else the checkout's port table.
    private readonly LocalCluster _cluster = new(ClusterSettings.From(root, Environment.GetEnvironmentVariable));

    /// <summary>Brings the cluster up; throws if that failed. Until the result is disposed a Ctrl-C takes the cluster down too.</summary>
    public IDisposable Up(int nodes, string storage, int port)
    {
        var atExit = ExitCleanup.Register(Down);
        try
        {
            _cluster.Up(nodes, storage, port);
        }
        catch
        {
            Down();
            atExit.Dispose();
            throw;
        }
        return new Stack(this, atExit);
    }

    /// <summary>Each node's pid by index (<c>node0=PID</c>, …; its stores' lines are left out).</summary>
    public IReadOnlyDictionary<int, int> NodePids()
    {
        var pids = new StringWriter();
        _cluster.Pids(pids);
        return pids.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split('=', 2))
            .Where(p => p.Length == 2 && p[0].StartsWith("node", StringComparison.Ordinal) && int.TryParse(p[0][4..], NumberStyles.None, CultureInfo.InvariantCulture, out _))
            .ToDictionary(p => int.Parse(p[0][4..], CultureInfo.InvariantCulture), p => int.Parse(p[1], CultureInfo.InvariantCulture));
    }

    public void Down()
    {
        try
        {
            _cluster.Down();
        }
        catch (ClusterException e)
        {
            Console.Error.WriteLine($"crash: taking the cluster down: {e.Message}");
        }
    }

    private sealed class Stack(ClusterUnderTest cluster, IDisposable atExit) : IDisposable
    {
        public void Dispose()
        {
            cluster.Down();
            atExit.Dispose();
        }
    }
}
