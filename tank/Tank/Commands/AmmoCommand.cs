using System.CommandLine;
using Tank.Ammo;

namespace Tank.Commands;

/// <summary><c>tank ammo</c>: writes a scenario's requests as Tank ammo.</summary>
public sealed class AmmoCommand : Command
{
    private readonly Option<Scenario> _scenario = TankOption.Create("--scenario", "The requests to write; the name doubles as their tag",
        ValueParsers.Choice(Scenarios.Names, Scenarios.Parse), string.Join('|', Scenarios.Names)).Require();
    private readonly Option<string> _storage = TankOption.Create("--storage", "The architecture (the queue, for queue-*) the requests name",
        ValueParsers.NonEmpty, "name").Require();
    private readonly Option<string> _host = TankOption.Create("--host", "The Host header every request carries",
        ValueParsers.Address, "host:port").WithDefault("127.0.0.1:8080");
    private readonly Option<long> _count = TankOption.Create("--count", "How many requests", ValueParsers.WholeNumber(min: 1), "n").WithDefault(10_000);
    private readonly Option<long> _seed = TankOption.Create("--seed", "The generator's seed: the same seed writes the same file", ValueParsers.WholeNumber(), "n").WithDefault(1);
    private readonly Option<AmmoFormat> _format = TankOption.Create("--format", "The ammo format (uri holds GETs only, uripost POSTs only)",
        ValueParsers.Choice(["phantom", "uri", "uripost"], AmmoFormats.Parse), "phantom|uri|uripost").WithDefault(AmmoFormat.Phantom);
    private readonly Option<bool> _hotKey = TankOption.Flag("--hot-key", "item-read always asks for item 5, as the original benchmark did");
    private readonly Option<KeyRange> _authorIds = TankOption.Create("--author-ids", "The author ids the author reads pick from",
        ValueParsers.KeyRange, "A-B").WithDefault(new KeyRange(1, 1000));
    private readonly Option<long> _items = TankOption.Create("--items", "Item ids 1..N exist (item scenarios)", ValueParsers.WholeNumber(min: 1), "n").WithDefault(500_000);
    private readonly Option<long> _locations = TankOption.Create("--locations", "Location ids 1..N exist (item-write bodies)", ValueParsers.WholeNumber(min: 1), "n").WithDefault(100_000);
    private readonly Option<long> _keys = TankOption.Create("--keys", "Key space of the kv scenarios: keys key0..key(N-1)", ValueParsers.WholeNumber(min: 1), "n").WithDefault(100_000);
    private readonly Option<bool> _counterValues = TankOption.Flag("--counter-values", "kv-put values are value<N> instead of 1 KiB of random bytes");
    private readonly Option<bool> _sequential = TankOption.Flag("--sequential", "kv-put writes key0, key1, … in order (a prefill of the key space) instead of random keys");
    private readonly Option<string> _out = TankOption.Create("--out", "The ammo file to write (replaced whole, never left half-written)", ValueParsers.NonEmpty, "file").Require();

    public AmmoCommand() : base("ammo", "Writes a scenario's requests as Tank ammo; deterministic per seed")
    {
        foreach (var option in new Option[] { _scenario, _storage, _host, _count, _seed, _format, _hotKey, _authorIds, _items, _locations, _keys, _counterValues, _sequential, _out })
            Add(option);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var scenario = parse.GetRequiredValue(_scenario);
        var format = parse.GetRequiredValue(_format);
        var authorIds = parse.GetRequiredValue(_authorIds);
        if (!scenario.Allows(format))
            throw new TankInputException($"scenario {scenario.Name()} cannot be written as {format.Name()} ammo (uri holds GETs, uripost POSTs, phantom both)");
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
        };
        var output = parse.GetRequiredValue(_out);

        var temp = output + ".tmp";
        using (var stream = new BufferedStream(File.Create(temp), 1 << 16))
            AmmoWriter.Write(stream, format, AmmoGenerator.Generate(options));
        File.Move(temp, output, overwrite: true); // never leave a half-written ammo file behind
        Console.Error.WriteLine($"tank: wrote {options.Count} {scenario.Name()} requests ({format.Name()}) to {output}");
        return 0;
    }
}
