namespace Tank.Bench;

/// <summary>
/// One measured cell of the matrix: a scenario on an architecture, on one service node
/// (<see cref="Nodes"/> 0) or through node 0 of a sharded cluster of that many nodes.
/// </summary>
public sealed record BenchCell(string Scenario, string Storage, int Nodes = 0)
{
    /// <summary>Where its results go under the run directory: runs/&lt;storage&gt;[-xN]/&lt;scenario&gt;.</summary>
    public string RelativeDir => Path.Combine("runs", Nodes > 1 ? $"{Storage}-x{Nodes}" : Storage, Scenario);

    public string Label => Nodes > 1 ? $"{Scenario} on {Storage} (node 0 of {Nodes})" : $"{Scenario} on {Storage}";
}
