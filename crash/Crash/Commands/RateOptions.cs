using System.CommandLine;
using Crash.Rates;
using Tank.Commands;
using Harness.CommandLine;

namespace Crash.Commands;

/// <summary>
/// --rate, --rate-from and --rate-share of <c>crash matrix</c> and <c>crash cluster</c>: a fixed
/// rate, or each run at a share of the capacity a <c>lab bench</c> report confirmed for its
/// architecture's writes (the fixed rate where the report has no figure).
/// </summary>
internal sealed class RateOptions
{
    private readonly Option<double?> _rate = CliOption.Create("--rate", "Writes per second (default 200, --quick 100); with --rate-from, only where the report has no confirmed figure",
        ValueParsers.PositiveNumber.Optional(), "per-second");
    private readonly Option<string> _from = CliOption.Create("--rate-from", "A lab bench report folder: each run writes at --rate-share × the capacity it confirmed for the architecture's writes",
        ValueParsers.NonEmpty, "report-dir");
    private readonly Option<double> _share = CliOption.Create("--rate-share", "The share of the confirmed capacity (default 0.5: a loaded run, not an overloaded one)",
        ValueParsers.PositiveNumber, "fraction").WithDefault(0.5);

    public IEnumerable<Option> All => [_rate, _from, _share];

    public RateRule Rule(ParseResult parse, bool quick)
    {
        var rate = parse.GetValue(_rate);
        var rule = rate is { } r ? new RateRule(r, "--rate") : new RateRule(quick ? 100 : 200, quick ? "default (--quick)" : "default");
        return parse.GetValue(_from) is { } from
            ? rule with { Report = BenchCapacities.Load(Path.GetFullPath(from)), Share = parse.GetRequiredValue(_share) }
            : rule;
    }
}
