using System.CommandLine;
using Tank.Ammo;
using Tank.Ammo.Keys;
using Tank.Ammo.Workloads;
using Harness.CommandLine;

namespace Tank.Commands;

/// <summary><c>tank ammo</c>: writes a scenario's requests as Tank ammo.</summary>
public sealed class AmmoCommand : Command
{
    private readonly Option<Scenario> _scenario = CliOption.Create("--scenario", "The requests to write; the name doubles as their tag",
        ValueParsers.Choice(Scenarios.Names, Scenarios.Parse), string.Join('|', Scenarios.Names)).Require();
    private readonly Option<string> _storage = CliOption.Create("--storage", "The architecture (the queue, for queue-*) the requests name",
        ValueParsers.NonEmpty, "name").Require();
    private readonly Option<string> _host = CliOption.Create("--host", "The Host header every request carries",
        ValueParsers.Address, "host:port").WithDefault("127.0.0.1:8080");
    private readonly Option<long> _count = CliOption.Create("--count", "How many requests", ValueParsers.WholeNumber(min: 1), "n").WithDefault(10_000);
    private readonly Option<long> _seed = CliOption.Create("--seed", "The generator's seed: the same seed writes the same file", ValueParsers.WholeNumber(), "n").WithDefault(1);
    private readonly Option<AmmoFormat> _format = CliOption.Create("--format", "The ammo format (uri holds GETs only, uripost POSTs only)",
        ValueParsers.Choice(["phantom", "uri", "uripost"], AmmoFormats.Parse), "phantom|uri|uripost").WithDefault(AmmoFormat.Phantom);
    private readonly Option<bool> _hotKey = CliOption.Flag("--hot-key", "item-read always asks for item 5, as the original benchmark did");
    private readonly Option<KeyRange> _authorIds = CliOption.Create("--author-ids", "The author ids the author reads pick from",
        ValueParsers.KeyRange, "A-B").WithDefault(new KeyRange(1, 1000));
    private readonly Option<long> _items = CliOption.Create("--items", "Item ids 1..N exist (item scenarios)", ValueParsers.WholeNumber(min: 1), "n").WithDefault(500_000);
    private readonly Option<long> _locations = CliOption.Create("--locations", "Location ids 1..N exist (item-write bodies)", ValueParsers.WholeNumber(min: 1), "n").WithDefault(100_000);
    private readonly Option<long> _keys = CliOption.Create("--keys", "Key space of the kv scenarios: keys key0..key(N-1)", ValueParsers.WholeNumber(min: 1), "n").WithDefault(100_000);
    private readonly Option<bool> _counterValues = CliOption.Flag("--counter-values", "kv-put values are value<N> instead of 1 KiB of random bytes");
    private readonly Option<bool> _sequential = CliOption.Flag("--sequential", "kv-put writes key0, key1, … in order (a prefill of the key space) instead of random keys");
    private readonly Option<KeyDistribution?> _distribution = CliOption.Create<KeyDistribution?>("--distribution",
        "How keyed scenarios pick author ids, item ids and kv keys, as YCSB: uniform, zipfian (scrambled over the keys), latest (skewed to the newest keys), hotspot. Default: uniform, or the workload's (latest for ycsb-d, zipfian otherwise)",
        ValueParsers.Choice<KeyDistribution?>(KeyDistributions.Names, n => KeyDistributions.Parse(n)), string.Join('|', KeyDistributions.Names));
    private readonly Option<double> _zipfTheta = CliOption.Create("--zipf-theta", "The zipfian constant of zipfian and latest, in (0, 1)",
        ValueParsers.PositiveNumber, "theta").WithDefault(0.99);
    private readonly Option<double> _hotspotFraction = CliOption.Create("--hotspot-fraction", "hotspot: the share of the keys that is hot, in (0, 1]",
        ValueParsers.PositiveNumber, "share").WithDefault(0.2);
    private readonly Option<double> _hotspotOps = CliOption.Create("--hotspot-ops", "hotspot: the share of requests that go to the hot keys, in [0, 1]",
        ValueParsers.NonNegativeNumber, "share").WithDefault(0.8);
    private readonly Option<Workload?> _workload = CliOption.Create<Workload?>("--workload",
        "A YCSB workload on the scenario's API (author-* or kv-*) instead of its own mix: a 50/50 read/update, b 95/5, c reads, d 95 read/5 insert, f 50 read/50 read-modify-write; shots tagged read, update, insert, rmw-read, rmw-update",
        ValueParsers.Choice<Workload?>(YcsbWorkloads.Names, n => YcsbWorkloads.Parse(n)), string.Join('|', YcsbWorkloads.Names));
    private readonly Option<string> _out = CliOption.Create("--out", "The ammo file to write (replaced whole, never left half-written)", ValueParsers.NonEmpty, "file").Require();

    public AmmoCommand() : base("ammo", "Writes a scenario's requests as Tank ammo; deterministic per seed")
    {
        foreach (var option in new Option[] { _scenario, _storage, _host, _count, _seed, _format, _hotKey, _authorIds, _items, _locations, _keys, _counterValues, _sequential, _distribution, _zipfTheta, _hotspotFraction, _hotspotOps, _workload, _out })
            Add(option);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var scenario = parse.GetRequiredValue(_scenario);
        var format = parse.GetRequiredValue(_format);
        var authorIds = parse.GetRequiredValue(_authorIds);
        var workload = parse.GetValue(_workload);
        if (workload is { } w && !w.Allows(format))
            throw new InputException($"workload {w.Name()} cannot be written as {format.Name()} ammo (it mixes methods: phantom only; ycsb-c reads only, so uri too)");
        if (workload is null && !scenario.Allows(format))
            throw new InputException($"scenario {scenario.Name()} cannot be written as {format.Name()} ammo (uri holds GETs, uripost POSTs, phantom both)");
        var options = new AmmoOptions
        {
            Scenario = scenario,
            Storage = parse.GetRequiredValue(_storage),
            Host = parse.GetRequiredValue(_host),
            Count = parse.GetRequiredValue(_count),
            Seed = (ulong)parse.GetRequiredValue(_seed),
            HotKey = parse.GetValue(_hotKey),
            AuthorIdMin = authorIds.First,
            AuthorIdMax = authorIds.Last,
            Items = parse.GetRequiredValue(_items),
            Locations = parse.GetRequiredValue(_locations),
            Keys = parse.GetRequiredValue(_keys),
            CounterValues = parse.GetValue(_counterValues),
            Sequential = parse.GetValue(_sequential),
            Distribution = parse.GetValue(_distribution),
            ZipfTheta = parse.GetRequiredValue(_zipfTheta),
            HotspotFraction = parse.GetRequiredValue(_hotspotFraction),
            HotspotOps = parse.GetRequiredValue(_hotspotOps),
            Workload = workload,
        };
        var requests = AmmoGenerator.Generate(options); // checks the combination before a byte is written
        var output = parse.GetRequiredValue(_out);

        var temp = output + ".tmp";
        using (var stream = new BufferedStream(File.Create(temp), 1 << 16))
            AmmoWriter.Write(stream, format, requests);
        File.Move(temp, output, overwrite: true); // never leave a half-written ammo file behind
        Console.Error.WriteLine($"tank: wrote {options.Count} {scenario.Name()}{(workload is { } named ? $" {named.Name()}" : "")} requests ({format.Name()}) to {output}");
        return 0;
    }
}
