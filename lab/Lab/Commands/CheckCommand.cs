using System.CommandLine;
using Harness.CommandLine;
using Lab.Bench;
using Tank.Commands;

namespace Lab.Commands;

/// <summary>
/// <c>lab check REPORT --storage a,b [--scenario author-read] [--factor 1.3]</c>: judges the independent minutes
/// script/check-capacity ran (REPORT/check/) against the report's figures; exit 1 when a cell fails.
/// </summary>
public sealed class CheckCommand : Command
{
    public const int Failed = 1;

    private readonly Argument<string> _report = new("report") { Description = "The bench report folder (summary.json) whose check/ folder holds the minutes (summary.json from lab report)" };
    private readonly Option<string[]> _storage = CliOption.Create("--storage", "The architectures checked, comma-separated", ValueParsers.Names, "a,b").Require();
    private readonly Option<string> _scenario = CliOption.Create("--scenario", "The scenario checked", ValueParsers.NonEmpty, "name").WithDefault("author-read");
    private readonly Option<double> _factor = CliOption.Create("--factor", "The multiple of the figure at which the SLO must fail", ValueParsers.PositiveNumber, "x").WithDefault(1.3);

    public CheckCommand() : base("check", "Judges script/check-capacity's minutes: p99 within the SLO at each figure R, over it at factor × R, in most minutes of each")
    {
        Add(_report);
        foreach (var option in new Option[] { _storage, _scenario, _factor }) Add(option);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var factor = parse.GetRequiredValue(_factor);
        if (factor <= 1) throw new InputException($"--factor: {factor} must be above 1 (the rate at which the SLO must fail)");
        var (sloMs, sides) = CapacityCheck.Judge(parse.GetRequiredValue(_report), parse.GetRequiredValue(_storage), parse.GetRequiredValue(_scenario), factor);
        parse.InvocationConfiguration.Output.Write(CapacityCheck.Table(sloMs, sides));
        return sides.All(s => s.Passed) ? 0 : Failed;
    }
}
