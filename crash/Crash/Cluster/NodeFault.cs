using Crash.Control;
using Crash.RunLengths;

namespace Crash.Cluster;

/// <summary>A fault that strikes one service node of a cluster (never node 0, which takes the writes).</summary>
/// <param name="Run">Carries it out on the node for the down time; its exit code.</param>
/// <param name="Budget">How long it may keep the node from answering, given --stop-seconds: the run lasts at least this past the fault's start.</param>
internal sealed record NodeFault(string Name, string Description, Func<ClusterNode, double, FaultLog, int> Run, Func<RestartBudgets, double, FaultBudget> Budget);

/// <summary>The cluster faults: <c>--fault node-kill,node-pause</c>.</summary>
internal static class NodeFaults
{
    public static readonly IReadOnlyList<NodeFault> All =
    [
        new("node-kill", "kill -9 a node, start it again after --stop-seconds", (node, seconds, log) => node.KillAndRestart(seconds, log),
            (budgets, seconds) => budgets.NodeRestart(seconds)),
        new("node-pause", "SIGSTOP a node for --stop-seconds, then SIGCONT (a hung node)", (node, seconds, log) => node.Pause(seconds, log),
            (_, seconds) => FaultBudget.Stop(seconds)),
    ];

    public static NodeFault? Find(string name) => All.FirstOrDefault(f => f.Name == name);
}
