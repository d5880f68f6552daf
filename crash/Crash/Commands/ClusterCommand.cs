using System.CommandLine;
using Harness.Catalogue;
using Crash.Cluster;
using Crash.RunLengths;

using Tank.Commands;
using Harness.CommandLine;
using Lab.Commands;

namespace Crash.Commands;

/// <summary>
/// <c>crash cluster</c>: crash runs on a sharded key-value cluster (script/cluster): for every
/// architecture the catalogue calls shardable and serving key-value (or those named), a cluster of
/// --nodes, and for every --fault one run writing through node 0 while node 1 is struck.
/// </summary>
public sealed class ClusterCommand : Command
{
    private readonly Option<string> _root = CliOption.Create("--root", "The checkout: its script/services, data directory and infra/config/ports.txt run the cluster; its published bench report sets the rates without --rate or --rate-from",
        ValueParsers.NonEmpty, "dir").Require();
    private readonly Option<long> _nodes = CliOption.Create("--nodes", "Nodes of the cluster (at least 2: node 1 is struck)", ValueParsers.WholeNumber(min: 2), "n").WithDefault(3);
    private readonly Option<long> _port = CliOption.Create("--port", "Node i listens on PORT + i", ValueParsers.WholeNumber(min: 1024), "port").Require();
    private readonly Option<string> _catalogue = CliOption.Create("--catalogue", "The catalogue (IntegrationService catalogue --json)", ValueParsers.NonEmpty, "file").Require();
    private readonly Option<string> _out = CliOption.Create("--out", "The directory for one JSON per run, summary.json and summary.md", ValueParsers.NonEmpty, "dir").Require();
    private readonly Option<string> _storage = CliOption.Create("--storage", "Architectures, comma-separated (default: every shardable one serving key-value)", ValueParsers.NonEmpty, "a,b");
    private readonly Option<string> _kind = CliOption.Create("--kind", "Kinds of write: only kv", ValueParsers.Choice(["kv"], k => k), "kv").WithDefault("kv");
    private readonly Option<string> _fault = CliOption.Create("--fault", $"Faults: {string.Join(", ", NodeFaults.All.Select(f => f.Name))}", ValueParsers.NonEmpty, "a,b")
        .WithDefault(string.Join(",", NodeFaults.All.Select(f => f.Name)));
    private readonly Option<double?> _seconds = CliOption.Create("--seconds", "How long each run writes (default 20, --quick 10); longer where the fault's restart budget and p99's return need it, saying so",
        ValueParsers.PositiveNumber.Optional(), "seconds");
    private readonly Option<string> _restartBudgets = CliOption.Create("--restart-budgets", "Seconds the service (a node) may take to restart (default: restart-budgets.json beside crash.dll)",
        ValueParsers.NonEmpty, "file");
    private readonly RateOptions _rates = new();
    private readonly Option<double?> _stopSeconds = CliOption.Create("--stop-seconds", "How long the node stays down or stopped (default 5, --quick 3)", ValueParsers.PositiveNumber.Optional(), "seconds");
    private readonly Option<double> _sloMs = CliOption.Create("--slo-ms", "The p99 the timeline's recovery is measured against (default 10, the bench's)", ValueParsers.PositiveNumber, "ms").WithDefault(10);
    private readonly Option<bool> _quick = CliOption.Flag("--quick", "10 s runs at 100 writes/s, a 3 s outage");
    private readonly Option<bool> _check = CliOption.Flag("--check", "Exit 1 if a run lost an acknowledged write, or the outage did not answer 503 for the struck node's keys only");
    private readonly Option<bool> _plan = CliOption.Flag("--plan", "Print the runs, run nothing");

    public ClusterCommand() : base("cluster", "Crash runs on a sharded key-value cluster: for each shardable architecture, node 1 killed or paused while writes go through node 0")
    {
        foreach (var option in new Option[] { _root, _nodes, _port, _catalogue, _out, _storage, _kind, _fault, _seconds, _restartBudgets, _stopSeconds, _quick, _check, _plan, _sloMs }.Concat(_rates.All))
            Add(option);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var catalogue = StorageCatalogue.Load(parse.GetRequiredValue(_catalogue));
        var shardable = catalogue.Entries.Where(e => e.Shardable && e.Serves.Contains(CrashKind.KeyValue.Serves())).ToList();
        var storages = parse.GetValue(_storage) is { } named
            ? List(named).Select(n => catalogue.Find(n) is { } e && shardable.Contains(e) ? e : throw new InputException(
                $"--storage: '{n}' is not a shardable key-value architecture (the catalogue's: {string.Join(", ", shardable.Select(s => s.Name))})")).ToList()
            : shardable;
        var faults = List(parse.GetRequiredValue(_fault)).Select(f => NodeFaults.Find(f) ?? throw new InputException(
            $"--fault: unknown fault '{f}' ({string.Join(", ", NodeFaults.All.Select(x => x.Name))})")).ToList();
        if (storages.Count == 0) throw new InputException("nothing to run: the catalogue has no shardable key-value architecture");
        var quick = parse.GetValue(_quick);
        var nodes = (int)parse.GetRequiredValue(_nodes);
        var port = (int)parse.GetRequiredValue(_port);
        if (port + nodes > 65_535) throw new InputException($"--port: {port} + {nodes} nodes goes beyond 65535");
        var root = Path.GetFullPath(parse.GetRequiredValue(_root));
        var options = new ClusterRunOptions
        {
            Root = root,
            Nodes = nodes,
            Port = port,
            Out = Path.GetFullPath(parse.GetRequiredValue(_out)),
            Seconds = parse.GetValue(_seconds) ?? (quick ? 10 : 20),
            Rates = _rates.Rule(parse, quick, root),
            RestartBudgets = RestartBudgets.Load(parse.GetValue(_restartBudgets) ?? RestartBudgets.DefaultPath),
            StopSeconds = parse.GetValue(_stopSeconds) ?? (quick ? 3 : 5),
            Check = parse.GetValue(_check),
            SloMs = parse.GetRequiredValue(_sloMs),
        };
        parse.InvocationConfiguration.Error.WriteLine($"crash: {options.Rates.Describe()}");
        // Every run's options are checked before anything runs; a run lasts until its node could be back and p99 under the SLO.
        var runner = new ClusterRunner(options);
        var runs = storages.SelectMany(storage => faults.Select(fault => (Label: ClusterRunner.Label(storage.Name, fault), Run: runner.RunOptions(storage.Name, fault)))).ToList();
        if (parse.GetValue(_plan))
        {
            foreach (var (label, run) in runs)
                parse.InvocationConfiguration.Output.WriteLine($"{label}\tnode{ClusterRunOptions.Victim}\tnothing\t{MatrixCommand.Length(run)}\t{MatrixCommand.Rate(run)}");
            return 0;
        }
        return runner.RunAsync(storages, faults, catalogue).GetAwaiter().GetResult();
    }

    private static string[] List(string text) => text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
