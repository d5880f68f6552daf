using Crash.Rates;
using Crash.RunLengths;

namespace Crash.Cluster;

/// <summary>The options of <c>crash cluster</c> (see <see cref="Commands.ClusterCommand"/>).</summary>
public sealed record ClusterRunOptions
{
    /// <summary>The checkout whose script/services, data directory and port table the cluster uses.</summary>
    public required string Root { get; init; }
    public required int Nodes { get; init; }
    /// <summary>Node i listens on Port + i.</summary>
    public required int Port { get; init; }
    public required string Out { get; init; }
    /// <summary>--seconds: how long a run writes, unless its fault needs longer (<see cref="LengthOf"/>).</summary>
    public double Seconds { get; init; } = 20;
    /// <summary>How long the service (a node) may take to restart: a node-kill run lasts until the node could be back and p99 under the SLO.</summary>
    public required RestartBudgets RestartBudgets { get; init; }
    /// <summary>Each run's writes per second: fixed, or a share of a bench report's confirmed capacity (the cluster's cell, else the single node's).</summary>
    public RateRule Rates { get; init; } = RateRule.Default;
    /// <summary>How long a node stays down (node-kill) or stopped (node-pause).</summary>
    public double StopSeconds { get; init; } = 5;
    public double RecoverSeconds { get; init; } = 60;
    public bool Check { get; init; }
    /// <summary>The p99 the timeline's recovery is measured against.</summary>
    public double SloMs { get; init; } = 10;

    public RunRate RateOf(string storage) => Rates.For(storage, CrashKind.KeyValue, Nodes);

    /// <summary>A third of the way into --seconds, as the matrix.</summary>
    public double FaultAt => Math.Floor(Seconds / 3);

    /// <summary>A run's length with <paramref name="fault"/>: --seconds, or longer where the fault's budget, the held window and the margin need more.</summary>
    internal RunLength LengthOf(NodeFault fault) => RunLength.For(Seconds, FaultAt, fault.Budget(RestartBudgets, StopSeconds));

    /// <summary>The node struck: never node 0, which takes the writes.</summary>
    public const int Victim = 1;
}
