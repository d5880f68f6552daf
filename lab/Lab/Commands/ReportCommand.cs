using System.CommandLine;
using Lab.Report;
using Harness.CommandLine;
using Tank.Commands;

namespace Lab.Commands;

/// <summary><c>lab report &lt;run dir&gt; [--slo-ms 10] [--results docs/RESULTS.md] [--readme README.md]</c>: report.md, report.html, summary.json and charts from a bench run.</summary>
public sealed class ReportCommand : Command
{
    private readonly Argument<string> _runDir = new("run-dir") { Description = "A bench run: runs/<storage>/<scenario>/phout.log, environment.json, crosscheck/" };
    private readonly Option<double> _sloMs = CliOption.Create("--slo-ms", "The p99 (ms) a second must hold to count towards max rps @ SLO",
        ValueParsers.PositiveNumber, "ms").WithDefault(10);
    private readonly Option<string?> _readme = new("--readme") { Description = "Also replace the results block of this page (README.md) with a short table of the run", HelpName = "file" };
    private readonly Option<string[]> _crash = new("--crash") { Description = "With --results: also the durability table of these crash tests' folders (their summary.json) or results files (a summary.json kept elsewhere, such as docs/crash/*.json; repeatable), and their failover runs as distributions; without it, the page keeps the durability sections it has", HelpName = "dir|file" };
    private readonly Option<string?> _results = new("--results") { Description = "Also write this Markdown page of the current figures (docs/RESULTS.md) from the report", HelpName = "file" };

    public ReportCommand() : base("report", "Writes report.md, report.html, summary.json and charts/*.svg into the run directory")
    {
        Add(_runDir);
        Add(_sloMs);
        Add(_results);
        Add(_readme);
        Add(_crash);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var runDir = parse.GetRequiredValue(_runDir);
        var runs = ReportBuilder.Build(runDir, parse.GetRequiredValue(_sloMs));
        Console.Error.WriteLine($"tank: report of {runs.Count} runs written to {Path.Combine(runDir, "report.md")} and report.html");
        if (parse.GetValue(_results) is { } results)
        {
            File.WriteAllText(results, ResultsPage.Render(Path.Combine(runDir, "summary.json"), runDir, results,
                parse.GetValue(_crash) is { Length: > 0 } crash ? crash.Select(Lab.Verdicts.CrashTableReader.SummaryPath).ToArray() : null));
            Console.Error.WriteLine($"tank: results page written to {results}");
        }
        if (parse.GetValue(_readme) is { } readme)
        {
            File.WriteAllText(readme, ResultsPage.ReplaceBlock(File.ReadAllText(readme), Path.Combine(runDir, "summary.json"), readme));
            Console.Error.WriteLine($"tank: results block of {readme} replaced");
        }
        return 0;
    }
}
