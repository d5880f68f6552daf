using Tank.Report;

namespace Tank.Commands;

/// <summary><c>tank report &lt;run dir&gt; [--slo-ms 10]</c>.</summary>
public static class ReportCommand
{
    public static int Run(CliArgs args)
    {
        if (args.Positional.Count != 1) throw new TankInputException("report needs exactly one run directory");
        var slo = args.Double("slo-ms", 10);
        args.Reject();
        if (slo <= 0) throw new TankInputException("--slo-ms must be above zero");
        var runs = ReportBuilder.Build(args.Positional[0], slo);
        Console.Error.WriteLine($"tank: report of {runs.Count} runs written to {Path.Combine(args.Positional[0], "report.md")} and report.html");
        return 0;
    }
}
