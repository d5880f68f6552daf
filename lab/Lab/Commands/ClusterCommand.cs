using System.CommandLine;
using Lab.Cluster;
using Harness.CommandLine;
using Tank.Commands;

namespace Lab.Commands;

/// <summary>
/// <c>lab cluster up|down|status|pids</c>: the key-value API's sharded topology on this machine
/// (script/cluster runs it with script/lib.sh's environment; see <see cref="LocalCluster"/>).
/// Exits 0; 1 when a step failed, no cluster is up (status, pids) or a node does not answer
/// (status); 2 on bad input.
/// </summary>
public sealed class ClusterCommand : Command
{
    public static readonly IReadOnlyList<string> Actions = ["up", "down", "status", "pids"];

    private readonly Argument<string> _action = new Argument<string>("action") { Description = "up, down, status or pids" }.AcceptOnlyFromAmong([.. Actions]);
    private readonly Option<long?> _nodes = CliOption.Create("--nodes", "up: how many nodes (default 3)", ValueParsers.WholeNumber(min: 1, max: 99).Optional(), "n");
    private readonly Option<string?> _storage = CliOption.Create<string?>("--storage", "up: a shardable architecture of the catalogue (default: the key-value API's default)", ValueParsers.NonEmpty, "name");
    private readonly Option<long?> _port = CliOption.Create("--port", "up: node 0's port, the others follow it (default PORT, 8080)", ValueParsers.WholeNumber(min: 1024, max: 65535).Optional(), "port");
    private readonly Option<string> _root = CliOption.Create("--root", "The repository: script/services, the service's Release build", ValueParsers.NonEmpty, "dir").WithDefault(".");

    public ClusterCommand() : base("cluster", "The key-value API's sharded topology on this machine: N service nodes, each with a store of its own")
    {
        Add(_action);
        foreach (var option in new Option[] { _nodes, _storage, _port, _root }) Add(option);
        SetAction(Run);
    }

    /// <summary>The action and the up options of a parsed command line, checked; nothing runs.</summary>
    public (string Action, int Nodes, string? Storage, int? Port, string Root) ArgumentsOf(ParseResult parse)
    {
        var action = parse.GetRequiredValue(_action);
        var nodes = parse.GetValue(_nodes);
        var storage = parse.GetValue(_storage);
        var port = parse.GetValue(_port);
        if (action != "up" && (nodes is not null || storage is not null || port is not null))
            throw new InputException($"--nodes, --storage and --port are for 'cluster up', not '{action}'");
        if (port + (nodes ?? 3) > 65535) throw new InputException($"--port: '{port}' leaves no room for {nodes ?? 3} nodes below 65536");
        return (action, (int)(nodes ?? 3), storage, (int?)port, Path.GetFullPath(parse.GetRequiredValue(_root)));
    }

    private int Run(ParseResult parse)
    {
        var (action, nodes, storage, port, root) = ArgumentsOf(parse);
        var settings = ClusterSettings.From(root, Environment.GetEnvironmentVariable);
        var cluster = new LocalCluster(settings);
        var output = parse.InvocationConfiguration.Output;
        try
        {
            switch (action)
            {
                case "up": cluster.Up(nodes, storage, port ?? settings.DefaultPort); return 0;
                case "down": cluster.Down(); return 0;
                case "status": return cluster.Status(output);
                default: cluster.Pids(output); return 0;
            }
        }
        catch (ClusterException e)
        {
            parse.InvocationConfiguration.Error.WriteLine($"error: {e.Message}");
            return 1;
        }
    }
}
