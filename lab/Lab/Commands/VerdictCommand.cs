using System.CommandLine;
using Lab.Verdicts;
using Harness.CommandLine;
using Tank.Commands;

namespace Lab.Commands;

/// <summary>
/// <c>lab verdict REPORT --slo-ms S --rate R [--durability none|crash|power-loss|failover] [--max-unavailable-s N] [--workload NAME] [--crash DIR]</c>:
/// the architectures that meet the target, ranked; exit 1 when none does.
/// </summary>
public sealed class VerdictCommand : Command
{
    public const int NothingQualifies = 1;

    private readonly Argument<string> _report = new("report") { Description = "A report folder (summary.json from lab report; its runs/ when --slo-ms differs from the report's)" };
    private readonly Option<double> _sloMs = CliOption.Create("--slo-ms", "The p99 (ms) the rate must be held at", ValueParsers.PositiveNumber, "ms").Require();
    private readonly Option<double> _rate = CliOption.Create("--rate", "The requests per second that must be held", ValueParsers.PositiveNumber, "rps").Require();
    private readonly Option<DurabilityClass> _durability = CliOption.Create("--durability",
        "The fault no acknowledged write may be lost to: none, crash (kill -9 of server or service), power-loss, failover (primary-kill or primary-stop of a replicated architecture's primary); needs --crash",
        ValueParsers.Choice(DurabilityClasses.Names, DurabilityClasses.Parse), string.Join('|', DurabilityClasses.Names)).WithDefault(DurabilityClass.None);
    private readonly Option<double?> _maxUnavailableS = CliOption.Create<double?>("--max-unavailable-s",
        "With --durability failover: the most seconds writes may fail for in each failover run (a run whose writes never came back fails)",
        (option, text) => ValueParsers.PositiveNumber(option, text), "s");
    private readonly Option<string?> _workload = CliOption.Create<string?>("--workload", "The scenario judged (as the report names it, e.g. kv-get); default: every scenario measured",
        ValueParsers.NonEmpty, "name");
    private readonly Option<string[]> _crash = CliOption.Many("--crash",
        "The crash test's output folder (its summary.json) or a result file; repeatable, the rows of all of them judged together", ValueParsers.NonEmpty, "dir");

    public VerdictCommand() : base("verdict", "Names the architectures that hold a rate at a p99 SLO (and survive a fault class), ranked by headroom then CPU per request")
    {
        Add(_report);
        foreach (var option in new Option[] { _sloMs, _rate, _durability, _maxUnavailableS, _workload, _crash }) Add(option);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var durability = parse.GetRequiredValue(_durability);
        var crashDirs = parse.GetValue(_crash) ?? [];
        var maxUnavailableS = parse.GetValue(_maxUnavailableS);
        if (maxUnavailableS is not null && durability != DurabilityClass.Failover)
            throw new InputException("--max-unavailable-s bounds how long writes fail on a failover: it needs --durability failover (and --crash DIR)");
        if (durability != DurabilityClass.None && crashDirs.Length == 0)
            throw new InputException($"--durability {durability.Name()} needs --crash DIR (script/crashtest's output folder)");
        var sloMs = parse.GetRequiredValue(_sloMs);
        var (cells, source) = VerdictCells.At(parse.GetRequiredValue(_report), sloMs);
        var scenario = parse.GetValue(_workload);
        if (scenario is not null && cells.All(c => c.Scenario != scenario))
            throw new InputException($"--workload: the report measured no '{scenario}' (it has {string.Join(", ", cells.Select(c => c.Scenario).Distinct())})");
        var crash = crashDirs.Length == 0 ? null : crashDirs.SelectMany(CrashTableReader.Read).ToList();
        var result = VerdictJudge.Judge(cells, new VerdictTarget(sloMs, parse.GetRequiredValue(_rate), durability, scenario, maxUnavailableS), crash);
        parse.InvocationConfiguration.Output.Write(VerdictText.Terminal(result, source));
        return result.Qualified.Count > 0 ? 0 : NothingQualifies;
    }
}
