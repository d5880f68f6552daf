using Tank.Ammo;
using Harness;
using Lab.Cluster;

namespace Lab.Bench;

/// <summary>
/// The key-value scenarios through node 0 of a sharded cluster, one cluster per shardable store
/// (<see cref="LocalCluster"/>, what script/cluster runs): the same ammo and schedules as on one node, aimed at node 0, with the CPU
/// of every node and of every node's own store accounted.
/// </summary>
public sealed class ClusterPhase(BenchContext context, BenchSteps steps, CellRunner cells, BenchProgress progress)
{
    public void Run(BenchMatrix matrix)
    {
        var nodes = context.Options.ClusterNodes;
        var port = context.Options.ClusterPort;
        // In this process, from the environment script/bench sets up (DATA_DIR, PG_BIN, the ports).
        var cluster = new LocalCluster(ClusterSettings.From(context.Options.Root, Environment.GetEnvironmentVariable));
        foreach (var store in matrix.ClusterStores)
        {
            cluster.Up(nodes, store, port);
            try
            {
                var servers = context.Catalogue.First(a => a.Name == store).Servers;
                var pids = new StringWriter();
                cluster.Pids(pids);
                var cpu = CpuTargets.ForCluster(pids.ToString(), servers, context.Options.Root, context.Cancel);
                using var client = new ServiceClient($"http://127.0.0.1:{port}");
                var target = new BenchTarget($"127.0.0.1:{port}", client, cpu, nodes);
                Warm(store, target);
                foreach (var scenario in matrix.ClusterScenarios)
                {
                    var cell = new BenchCell(scenario, store, nodes);
                    cells.Measure(cell, target, Path.Combine(context.RunDir, cell.RelativeDir), progress.Next(cell));
                }
            }
            finally
            {
                // As script/cluster down did: a failure to stop is reported, and never hides the run's own error.
                try
                {
                    cluster.Down();
                }
                catch (ClusterException e)
                {
                    ToolLog.Write($"taking the {store} cluster down: {e.Message}");
                }
            }
        }
    }

    // Freshly started processes compile their code while they share the cores: a probe on them
    // measured a quarter of what the same cluster does warm (kv-put 3 654 against 15 350 rps on
    // tarantool-memtx). Writes through node 0 at full load first, not recorded.
    private void Warm(string store, BenchTarget target)
    {
        var profile = context.Profile;
        using var work = new Workspace();
        steps.Ammo(Scenario.KvPut, store, target.Address, 20_000, work["warm.ammo"]);
        ToolLog.Write($"warming the cluster: kv-put through node 0, closed model, {profile.ClusterWarmupSeconds} s");
        Shooter.Fire(new Shot
        {
            Config = context.LoadYaml, AmmoFile = work["warm.ammo"], Address = target.Address, OutDir = work["warm"],
            Schedule = $"const({profile.ProbeInstances}, 1s) const(0, {profile.ClusterWarmupSeconds - 1}s)", Instances = profile.ProbeInstances,
        }, context.Cancel);
    }
}
