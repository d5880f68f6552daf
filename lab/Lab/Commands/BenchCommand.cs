using System.CommandLine;
using System.Runtime.InteropServices;
using Lab.Bench;
using Harness.CommandLine;
using Lab.Cluster;
using Lab.Report;
using Tank.Ammo;
using Tank.Ammo.Workloads;
using Tank.Commands;
using Harness;

namespace Lab.Commands;

/// <summary>
/// <c>lab bench</c>: the whole benchmark (script/bench runs it once the servers are up and the
/// service is built): every scenario on every architecture the service's catalogue says serves
/// it, measured as tank/README.md describes, and the report. Exits 0, 1 when a step failed, 2 on
/// bad input, 130 when interrupted.
/// </summary>
public sealed class BenchCommand : Command
{
    private readonly Option<bool> _quick = CliOption.Flag("--quick", "lab/profiles/quick.yaml: a smaller data set, short steps, one repetition and by default only author-read and queue-write: under 6 minutes");
    private readonly Option<string?> _profile = CliOption.Create<string?>("--profile", "A profile file read over lab/profiles/default.yaml (and quick.yaml with --quick): only the keys it names change",
        ValueParsers.NonEmpty, "file");
    private readonly Option<string[]?> _storage = CliOption.Create<string[]?>("--storage", "Only these architectures (names or aliases from the catalogue)", Names, "a,b");
    private readonly Option<string[]?> _scenario = CliOption.Create<string[]?>("--scenario", "Only these scenarios (default: all but kv-*; with --cluster: kv-put,kv-get)", Names, "s,t");
    private readonly Option<double> _sloMs = CliOption.Create("--slo-ms", "The p99 (ms) a second must hold to count towards max rps @ SLO", ValueParsers.PositiveNumber, "ms").WithDefault(10);
    private readonly Option<long> _seed = CliOption.Create("--seed", "The ammo generator's seed", ValueParsers.WholeNumber(), "n").WithDefault(1);
    private readonly Option<bool> _crossCheck = CliOption.Flag("--crosscheck", "Afterwards one endpoint per architecture under wrk and under our closed model (64 connections, 10 s each)");
    private readonly Option<long> _cluster = CliOption.Create("--cluster", "Afterwards the key-value scenarios through node 0 of an N-node sharded cluster of each shardable store (script/cluster)",
        ValueParsers.WholeNumber(min: 2, max: 99), "n").WithDefault(0);
    private readonly Option<long?> _repeat = CliOption.Create("--repeat", "Independent repetitions of each cell, interleaved in shuffled rounds; the summary gets each one's capacity, their median and its interval (default: the profile's repeats, 3, with --quick 1)",
        ValueParsers.WholeNumber(min: 1, max: 20).Optional(), "n");
    private readonly Option<string?> _workload = CliOption.Create<string?>("--workload", "A YCSB workload (ycsb-a, ycsb-b, ycsb-c, ycsb-d, ycsb-f) on every architecture with authors or key-value pairs, instead of the scenarios",
        ValueParsers.OneOf(Tank.Ammo.Workloads.YcsbWorkloads.Names), "name");
    private readonly Option<string?> _distribution = CliOption.Create<string?>("--distribution", "How keyed scenarios draw their keys (uniform, zipfian, latest, hotspot); default uniform, a workload's own with --workload",
        ValueParsers.OneOf(Tank.Ammo.Keys.KeyDistributions.Names), "name");
    private readonly Option<double> _zipfTheta = CliOption.Create("--zipf-theta", "The zipfian constant", ValueParsers.PositiveNumber, "t").WithDefault(0.99);
    private readonly Option<bool> _pin = CliOption.Flag("--pin", "The generator on the first core, the service and its servers on the others (cgroup v1 cpusets; needs root): neither takes the other's core");
    private readonly Option<Dictionary<string, double>?> _throttle = CliOption.Create<Dictionary<string, double>?>("--throttle",
        "Hold servers (script/services names) to a CPU quota for the whole run, e.g. tarantool=0.25 (cgroup v1 cpu; needs root): a regression on purpose, for lab compare", Throttles, "server=cores[,…]");
    private readonly Option<string> _serviceDll = CliOption.Create("--service-dll", "The service's Release build (its catalogue, its tools, the service itself)", ValueParsers.NonEmpty, "file").Require();
    private readonly Option<string> _root = CliOption.Create("--root", "The repository: script/, tank/load.yaml, reports/", ValueParsers.NonEmpty, "dir").WithDefault(".");
    private readonly Option<long> _port = CliOption.Create("--port", "The port the service under test listens on", ValueParsers.WholeNumber(min: 1024, max: 65535), "port").WithDefault(18080);
    private readonly Option<long> _clusterPort = CliOption.Create("--cluster-port", "Node 0's port with --cluster (the others follow it)", ValueParsers.WholeNumber(min: 1024, max: 65535), "port").WithDefault(18180);
    private readonly Option<bool> _listServers = CliOption.Flag("--list-servers",
        "Print the servers (script/services names) the selected cells need, one per line, and exit: the ones script/bench starts; nothing runs");

    // A comma-separated list of non-empty names (a,b); whether they exist, the catalogue says later.
    private static readonly ValueParser<string[]?> Names = (option, text) => ValueParsers.Names(option, text);

    // server=cores pairs, comma-separated, each server once; the cores a positive number.
    private static readonly ValueParser<Dictionary<string, double>?> Throttles = (option, text) =>
    {
        var throttles = new Dictionary<string, double>();
        foreach (var pair in text.Split(',', StringSplitOptions.TrimEntries))
        {
            if (pair.Split('=', 2) is not [{ Length: > 0 } server, var value]) throw new InputException($"{option}: '{pair}' is not server=cores");
            if (!double.TryParse(value, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var cores) || cores <= 0 || !double.IsFinite(cores))
                throw new InputException($"{option}: '{pair}': the cores must be a number above zero");
            if (!throttles.TryAdd(server, cores)) throw new InputException($"{option}: {server} is named twice");
        }
        return throttles;
    };

    public BenchCommand() : base("bench", "The whole benchmark: every scenario on every architecture that serves it, then the report in reports/<UTC stamp>/ and reports/latest")
    {
        foreach (var option in new Option[] { _quick, _profile, _storage, _scenario, _sloMs, _seed, _crossCheck, _cluster, _repeat, _workload, _distribution, _zipfTheta, _pin, _throttle, _serviceDll, _root, _port, _clusterPort, _listServers })
            Add(option);
        SetAction(Run);
    }

    /// <summary>The options of a parsed command line; nothing runs.</summary>
    public BenchOptions OptionsOf(ParseResult parse) => new()
    {
        Quick = parse.GetValue(_quick),
        Profile = parse.GetValue(_profile) is { } profile ? Path.GetFullPath(profile) : null,
        // Absent, a list option reads as empty: that means "all", not "none".
        Storages = parse.GetValue(_storage) is { Length: > 0 } storages ? storages : null,
        Scenarios = parse.GetValue(_scenario) is { Length: > 0 } scenarios ? scenarios : null,
        SloMs = parse.GetRequiredValue(_sloMs),
        Seed = parse.GetRequiredValue(_seed),
        CrossCheck = parse.GetValue(_crossCheck),
        ClusterNodes = (int)parse.GetRequiredValue(_cluster),
        Repeat = (int?)parse.GetValue(_repeat),
        Workload = parse.GetValue(_workload),
        Distribution = parse.GetValue(_distribution),
        ZipfTheta = parse.GetRequiredValue(_zipfTheta),
        Pin = parse.GetValue(_pin),
        Throttles = parse.GetValue(_throttle) ?? [],
        ServiceDll = Path.GetFullPath(parse.GetRequiredValue(_serviceDll)),
        Root = Path.GetFullPath(parse.GetRequiredValue(_root)),
        Port = (int)parse.GetRequiredValue(_port),
        ClusterPort = (int)parse.GetRequiredValue(_clusterPort),
    };

    private int Run(ParseResult parse)
    {
        var options = OptionsOf(parse);
        if (parse.GetValue(_listServers))
        {
            foreach (var server in BenchRun.Servers(options, CancellationToken.None)) Console.WriteLine(server);
            return 0;
        }
        using var cancel = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) => { e.Cancel = true; cancel.Cancel(); };
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, c => { c.Cancel = true; cancel.Cancel(); });
        try
        {
            BenchRun.Run(options, cancel.Token);
            return 0;
        }
        catch (OperationCanceledException) when (cancel.IsCancellationRequested)
        {
            ToolLog.Write("interrupted");
            return 130;
        }
        catch (Exception e) when (e is InvalidOperationException or HttpRequestException or IOException)
        {
            ToolLog.ClearStatus();
            Console.Error.WriteLine($"tank: error: {e.Message}");
            return 1;
        }
    }
}
