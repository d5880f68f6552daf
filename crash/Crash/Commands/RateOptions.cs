using System.CommandLine;
using Crash.Rates;
using Tank.Commands;
using Harness.CommandLine;

namespace Crash.Commands;

/// <summary>
/// --rate, --rate-from and --rate-share of <c>crash matrix</c> and <c>crash cluster</c>: a fixed
/// rate, or each run at a share of the capacity a <c>lab bench</c> report confirmed for its
/// architecture's writes (the fixed rate where the report has no figure). With neither --rate nor
/// --rate-from (and not --quick), the report is the published one (<see cref="PublishedBenchReport"/>).
/// </summary>
internal sealed class RateOptions
{
    private readonly Option<double?> _rate = CliOption.Create("--rate", "Writes per second (default 200, --quick 100); with --rate-from, only where the report has no confirmed figure",
        ValueParsers.PositiveNumber.Optional(), "per-second");
    private readonly Option<string> _from = CliOption.Create("--rate-from", "A lab bench report folder: each run writes at --rate-share × the capacity it confirmed for the architecture's writes (default without --rate or --quick: the report docs/RESULTS.md under --root was generated from, else reports/latest)",
        ValueParsers.NonEmpty, "report-dir");
    private readonly Option<double> _share = CliOption.Create("--rate-share", "The share of the confirmed capacity (default 0.5: a loaded run, not an overloaded one)",
        ValueParsers.PositiveNumber, "fraction").WithDefault(0.5);

    public IEnumerable<Option> All => [_rate, _from, _share];

    /// <summary>The rule of the options given, <paramref name="root"/> the checkout whose published report stands in for --rate-from.</summary>
    public RateRule Rule(ParseResult parse, bool quick, string root)
    {
        var rate = parse.GetValue(_rate);
        var rule = rate is { } r ? new RateRule(r, "--rate") : new RateRule(quick ? 100 : 200, quick ? "default (--quick)" : "default");
        var share = parse.GetRequiredValue(_share);
        if (parse.GetValue(_from) is { } from)
            return rule with { Report = BenchCapacities.Load(from, root), Share = share, Origin = "--rate-from", ReportNamed = true };
        if (rate is not null || quick) return rule;
        var published = PublishedBenchReport.Find(root);
        return published.Directory is { } directory
            ? rule with { Report = BenchCapacities.Load(directory, root), Share = share, Origin = published.Why }
            : rule with { Origin = $"no bench report: {published.Why}" };
    }
}
