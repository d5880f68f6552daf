using Harness.Processes;
using System.Globalization;

namespace Crash.Control;

/// <summary>
/// The servers, through script/services (the one supervisor): their processes, starting them,
/// cutting their power. Server names are the catalogue's <c>servers</c>.
/// </summary>
internal sealed class ServerControl(string servicesScript)
{
    /// <summary>A server's main processes (the Redis Cluster's three masters); throws if it is not running.</summary>
    public IReadOnlyList<int> Pids(string server) =>
        ProcessRunner.Checked(servicesScript, ["pid", server], CancellationToken.None)
            .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(p => int.Parse(p, NumberStyles.None, CultureInfo.InvariantCulture)).ToList();

    /// <summary>Its main processes and, for PostgreSQL, every backend too: what a hung server is.</summary>
    public IReadOnlyList<int> AllPids(string server)
    {
        var pids = Pids(server);
        return server == "postgres" ? [.. pids, .. pids.SelectMany(Signals.Children)] : pids;
    }

    /// <summary>
    /// A replicated server's current primary (<c>script/services primary</c>): its address, and the processes
    /// of its node (the data server first, then the agents beside it); throws if none is known.
    /// </summary>
    public (string Address, IReadOnlyList<int> Pids) Primary(string server)
    {
        var lines = ProcessRunner.Checked(servicesScript, ["primary", server], CancellationToken.None)
            .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return (lines[0], lines.Skip(1).Select(p => int.Parse(p, NumberStyles.None, CultureInfo.InvariantCulture)).ToList());
    }

    /// <summary>The primary's address, or null while no node is named primary (or the script fails).</summary>
    public string? PrimaryAddress(string server)
    {
        try { return Primary(server).Address; }
        catch (InvalidOperationException) { return null; }
    }

    /// <summary>
    /// <c>script/services partition SERVER both|oneway</c>: the primary's node cut off from the other nodes; its
    /// address. Healed by <see cref="Heal"/> (and at crash's exit, whatever ends it).
    /// </summary>
    public string Partition(string server, string way) =>
        ProcessRunner.Checked(servicesScript, ["partition", server, way], CancellationToken.None).Trim();

    /// <summary><c>script/services heal SERVER</c>: the partition removed (nothing if there is none).</summary>
    public void Heal(string server) => ProcessRunner.Checked(servicesScript, ["heal", server], CancellationToken.None);

    /// <summary><c>script/services partitions</c>: the partitions still in place (nftables tables), one each.</summary>
    public IReadOnlyList<string> Partitions() =>
        ProcessRunner.Checked(servicesScript, ["partitions"], CancellationToken.None)
            .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary><c>script/services up SERVER…</c>, its output in <paramref name="log"/>; false if it failed.</summary>
    public bool Up(IReadOnlyList<string> servers, FaultLog log) => ProcessRunner.RunLogged(servicesScript, ["up", .. servers], log.Path) == 0;

    /// <summary><c>script/services down SERVER…</c>, its output in <paramref name="log"/>; false if it failed.</summary>
    public bool Down(IReadOnlyList<string> servers, FaultLog log) => ProcessRunner.RunLogged(servicesScript, ["down", .. servers], log.Path) == 0;

    /// <summary><c>script/services powercut SERVER…</c>: every process killed, what was not fsynced dropped, started again.</summary>
    public bool Powercut(IReadOnlyList<string> servers, FaultLog log) => ProcessRunner.RunLogged(servicesScript, ["powercut", .. servers], log.Path) == 0;
}
