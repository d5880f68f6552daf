using System.CommandLine;
using System.Globalization;
using Lab.Report;
using Tank.Runner;

namespace Lab.Commands;

/// <summary>
/// <c>lab capacity &lt;dir with phout.log&gt;</c>: prints the steady rate a closed-model probe
/// reached (responses per second, a whole number), which script/bench scales its ramps by.
/// </summary>
public sealed class CapacityCommand : Command
{
    private readonly Argument<string> _dir = new("dir") { Description = "The run directory of a closed-model probe (phout.log, meta.json)" };

    public CapacityCommand() : base("capacity", "Prints the steady rps of a closed-model run: the median of its whole seconds, the first and last left out")
    {
        Add(_dir);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var dir = parse.GetRequiredValue(_dir);
        var run = PhoutAnalyzer.Analyze(Path.Combine(dir, "phout.log"), "probe", "probe", RunMeta.TryRead(Path.Combine(dir, "meta.json")), sloMs: 10);
        Console.WriteLine(Math.Round(CapacityEstimate.Of(run.Seconds)).ToString(CultureInfo.InvariantCulture));
        return 0;
    }
}
