using System.Globalization;
using Tank.Report;

namespace Tank.Commands;

/// <summary>
/// <c>tank capacity &lt;dir with phout.log&gt;</c>: prints the steady rate a closed-model probe
/// reached (responses per second, a whole number), which script/bench scales its ramps by.
/// </summary>
public static class CapacityCommand
{
    public static int Run(CliArgs args)
    {
        if (args.Positional.Count != 1) throw new TankInputException("capacity needs exactly one run directory");
        args.Reject();
        var dir = args.Positional[0];
        var run = PhoutAnalyzer.Analyze(Path.Combine(dir, "phout.log"), "probe", "probe", RunMeta.TryRead(Path.Combine(dir, "meta.json")), sloMs: 10);
        Console.WriteLine(Math.Round(CapacityEstimate.Of(run.Seconds)).ToString(CultureInfo.InvariantCulture));
        return 0;
    }
}
