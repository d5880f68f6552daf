using Tank.Ammo;

namespace Tank.Commands;

/// <summary><c>tank ammo</c>: writes a scenario's requests as Tank ammo.</summary>
public static class AmmoCommand
{
    public static int Run(CliArgs args)
    {
        var scenario = Scenarios.Parse(args.Require("scenario"));
        var format = AmmoFormats.Parse(args.Get("format") ?? "phantom");
        var authorIds = KeyRange.Parse(args.Get("author-ids") ?? "1-1000", "--author-ids");
        var options = new AmmoOptions
        {
            Scenario = scenario,
            Storage = args.Require("storage"),
            Host = args.Get("host") ?? "127.0.0.1:8080",
            Count = Positive(args.Long("count", 10_000), "count"),
            Seed = (ulong)args.Long("seed", 1),
            HotKey = args.Flag("hot-key"),
            AuthorIdMin = authorIds.First,
            AuthorIdMax = authorIds.Last,
            Items = Positive(args.Long("items", 500_000), "items"),
            Locations = Positive(args.Long("locations", 100_000), "locations"),
        };
        var output = args.Require("out");
        args.Reject();
        if (!scenario.Allows(format))
            throw new TankInputException($"scenario {scenario.Name()} cannot be written as {format.Name()} ammo (uri holds GETs, uripost POSTs, phantom both)");

        var temp = output + ".tmp";
        using (var stream = new BufferedStream(File.Create(temp), 1 << 16))
            AmmoWriter.Write(stream, format, AmmoGenerator.Generate(options));
        File.Move(temp, output, overwrite: true); // never leave a half-written ammo file behind
        Console.Error.WriteLine($"tank: wrote {options.Count} {scenario.Name()} requests ({format.Name()}) to {output}");
        return 0;
    }

    private static long Positive(long value, string name) =>
        value > 0 ? value : throw new TankInputException($"--{name} must be above zero");
}
