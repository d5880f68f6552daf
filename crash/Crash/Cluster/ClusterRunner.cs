using System.Net.Http.Json;
using Harness.Catalogue;
using Crash.Matrix;
using IntegrationService.Kv.Cluster;
using Tank.Runner;
using IntegrationService.Http;

namespace Crash.Cluster;

/// <summary>
/// Crash runs on a sharded key-value cluster: per architecture a cluster (the lab's, in this process), and per
/// fault one run writing through node 0 (a <see cref="CrashTest"/> of kind kv) while node 1 is
/// killed and restarted, or paused; its writes split by owner (<see cref="OwnerSplit"/>) and judged
/// (<see cref="ClusterCheck"/>); then summary.json and summary.md as a matrix writes them.
/// </summary>
internal sealed class ClusterRunner(ClusterRunOptions options)
{
    private const int OwnerChecks = 300;

    /// <summary>0; 1 when a run's API did not come back or (with --check) a run failed its check; 3 when a cluster did not come up.</summary>
    public async Task<int> RunAsync(IReadOnlyList<StorageDescription> storages, IReadOnlyList<NodeFault> faults, StorageCatalogue catalogue)
    {
        Directory.CreateDirectory(options.Out);
        var clusters = new ClusterUnderTest(options.Root);
        var results = new List<RunResult>();
        var status = 0;
        foreach (var storage in storages)
        {
            try
            {
                using var cluster = clusters.Up(options.Nodes, storage.Name, options.Port);
                var pids = clusters.NodePids();
                var nodes = Enumerable.Range(0, options.Nodes).Select(i => new ClusterNode(i, $"http://127.0.0.1:{options.Port + i}", pids[i])).ToList();
                var hashing = await HashingAsync(nodes[0].Url).ConfigureAwait(false);
                try
                {
                    foreach (var fault in faults)
                    {
                        var (result, exitCode) = await RunRowAsync(storage.Name, fault, nodes, hashing).ConfigureAwait(false);
                        if (exitCode != 0) status = 1;
                        if (result is null) continue;
                        results.Add(result);
                        Console.WriteLine(result.Summary() + Split(result.Cluster!));
                    }
                }
                finally
                {
                    foreach (var node in nodes) node.StopRestarted();
                }
            }
            catch (Exception e) when (e is InvalidOperationException or KeyNotFoundException or HttpRequestException or Lab.Cluster.ClusterException or Harness.CommandLine.InputException)
            {
                Console.Error.WriteLine($"crash: {storage.Name}: the cluster could not be run: {e.Message}");
                status = MatrixRunner.ControlFailed;
            }
        }
        if (results.Count == 0)
        {
            Console.Error.WriteLine("crash: no run produced a result");
            return status == 0 ? 1 : status;
        }
        MatrixSummary.WriteJson(results, Path.Combine(options.Out, "summary.json"));
        var markdown = ClusterSummary.Markdown(results.Cast<CrashResult>().ToList(), catalogue);
        File.WriteAllText(Path.Combine(options.Out, "summary.md"), markdown);
        Console.WriteLine();
        Console.Write(markdown);
        Console.Error.WriteLine($"crash: results: {options.Out} (summary.md, summary.json, one JSON per run)");
        if (options.Check && results.Any(r => r.Check is { Ok: false }))
        {
            foreach (var r in results.Where(r => r.Check is { Ok: false })) Console.Error.WriteLine($"  {r.Label}: {string.Join("; ", r.Check!.Problems)}");
            return 1;
        }
        return status;
    }

    /// <summary>A run's label: the architecture, kv-cluster and the fault.</summary>
    public static string Label(string storage, NodeFault fault) => $"{storage} kv-cluster {fault.Name}";

    /// <summary>
    /// The options of one run at its rate and length, writing through node 0 while node 1 is struck
    /// (checked: throws on a combination that cannot run). Without <paramref name="nodes"/> (a plan,
    /// before any cluster is up) the nodes are where --port puts them and the fault is not to be run.
    /// </summary>
    public CrashOptions RunOptions(string storage, NodeFault fault, IReadOnlyList<ClusterNode>? nodes = null)
    {
        var label = Label(storage, fault);
        var rate = options.RateOf(storage);
        var length = options.LengthOf(fault);
        var victim = nodes?[ClusterRunOptions.Victim];
        return PlannedRun.Options(options.Rates, rate, length, label, new CrashOptions
        {
            Url = nodes?[0].Url ?? $"http://127.0.0.1:{options.Port}",
            Storage = storage,
            Kind = CrashKind.KeyValue,
            Rate = rate.Rate,
            Seconds = length.Seconds,
            FaultAt = length.FaultAt,
            FaultCommand = $"{fault.Name} node{ClusterRunOptions.Victim}",
            FaultAction = victim is null
                ? _ => throw new InvalidOperationException($"{label}: planned without a cluster, not to be run")
                : log => fault.Run(victim, options.StopSeconds, log),
            RecoverSeconds = options.RecoverSeconds,
            SloMs = options.SloMs,
            Out = Path.Combine(options.Out, $"{storage}-kv-cluster-{fault.Name}.json"),
            Label = label,
        });
    }

    private async Task<(CrashResult? Result, int ExitCode)> RunRowAsync(string storage, NodeFault fault, IReadOnlyList<ClusterNode> nodes, RendezvousHashing hashing)
    {
        var victim = nodes[ClusterRunOptions.Victim];
        var run = RunOptions(storage, fault, nodes);
        var (label, path) = (run.Label, run.Out);
        Console.Error.WriteLine($"crash: {label}: {Commands.MatrixCommand.RateAndLength(run)}");
        var test = new CrashTest(run);
        var (result, exitCode) = await test.RunAsync().ConfigureAwait(false);
        if (result is null) return (null, exitCode);
        var victimIndex = IndexOf(hashing, victim.Url);
        var split = OwnerSplit.Compute(test.Writes, hashing.OwnerIndex, hashing.Nodes.Count, victimIndex, victim.Url, result.FaultStartedS, result.FaultEndedS);
        split = await CheckOwnersAsync(split, test.Writes, nodes[0].Url, storage, hashing).ConfigureAwait(false);
        result = result with { Kind = "kv-cluster", Fault = fault.Name, Cluster = split };
        result = result with { Check = ClusterCheck.Judge(result, split) };
        result.Write(path);
        if (result.Timeline is { } timeline) File.WriteAllText(Path.Combine(options.Out, MatrixSummary.ChartFile(label)), Timeline.TimelineSvg.Render(timeline, label));
        return (result, exitCode);
    }

    /// <summary>The owner function over the nodes as node 0 lists them (<c>/v0/status</c>), the same on every node.</summary>
    private static async Task<RendezvousHashing> HashingAsync(string node0)
    {
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        var status = await client.GetFromJsonAsync<NodeStatus>(node0 + "/v0/status").ConfigureAwait(false);
        if (status is not { Nodes.Length: > 0 }) throw new InvalidOperationException($"{node0}/v0/status names no nodes: not a cluster");
        return new RendezvousHashing(status.Nodes);
    }

    /// <summary>
    /// Reads up to 300 acknowledged keys through node 0 and compares the node that served each (the
    /// <c>X-Kv-Owner</c> of a relayed answer; none: node 0 itself) with the hashing's owner.
    /// </summary>
    private static async Task<OwnerSplit> CheckOwnersAsync(OwnerSplit split, IReadOnlyList<WriteRecord> writes, string node0, string storage, RendezvousHashing hashing)
    {
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        long checkedKeys = 0, mismatches = 0;
        foreach (var key in writes.Where(w => w.Outcome == WriteOutcome.Acked).Select(w => w.Key!).Distinct(StringComparer.Ordinal).Take(OwnerChecks))
        {
            try
            {
                using var answer = await client.GetAsync($"{node0}/v0/entity?id={Uri.EscapeDataString(key)}&storage={Uri.EscapeDataString(storage)}").ConfigureAwait(false);
                if (!answer.IsSuccessStatusCode) continue;
                var servedBy = answer.Headers.TryGetValues("X-Kv-Owner", out var owner) ? owner.First() : node0;
                checkedKeys++;
                if (!string.Equals(servedBy.TrimEnd('/'), hashing.Owner(key), StringComparison.OrdinalIgnoreCase)) mismatches++;
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
            {
                // unchecked, not a mismatch
            }
        }
        return split with { OwnerChecked = checkedKeys, OwnerMismatches = mismatches };
    }

    private static int IndexOf(RendezvousHashing hashing, string url)
    {
        for (var i = 0; i < hashing.Nodes.Count; i++)
            if (string.Equals(hashing.Nodes[i], url, StringComparison.OrdinalIgnoreCase)) return i;
        throw new InvalidOperationException($"{url} is not among the cluster's nodes ({string.Join(", ", hashing.Nodes)})");
    }

    private static string Split(OwnerSplit s) =>
        $"; while node {s.Victim} was down its keys got {s.Victim503} × 503 of {s.VictimWrites} writes, the others' {s.OthersFailed} failures of {s.OthersWrites}";

    private sealed record NodeStatus(string Status, string? Node, string[] Nodes);
}
