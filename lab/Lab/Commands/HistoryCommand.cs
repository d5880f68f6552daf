using System.CommandLine;
using Lab.Compare;
using Harness.CommandLine;
using Tank.Commands;

namespace Lab.Commands;

/// <summary><c>lab history REPORT [--file reports/history.jsonl] [--build TEXT]</c>: appends the report's cells as one line.</summary>
public sealed class HistoryCommand : Command
{
    private readonly Argument<string> _report = new("report") { Description = "A report folder (with summary.json from lab report)" };
    private readonly Option<string> _file = CliOption.Create("--file", "The history to append to (created if missing)", ValueParsers.NonEmpty, "file")
        .WithDefault(Path.Combine("reports", "history.jsonl"));
    private readonly Option<string?> _build = CliOption.Create<string?>("--build", "The build measured (e.g. a commit); default: environment.json's build, else unknown",
        ValueParsers.Text, "text");

    public HistoryCommand() : base("history", "Appends one line per report (build, date, machine, each cell's capacity, p99, CPU per request) to a JSON-lines history")
    {
        Add(_report);
        Add(_file);
        Add(_build);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var report = ReportFileReader.Read(parse.GetRequiredValue(_report));
        var file = parse.GetRequiredValue(_file);
        var lines = HistoryFile.Read(file); // a malformed history is reported before it is appended to
        HistoryFile.Append(file, HistoryFile.Line(report, parse.GetValue(_build)));
        parse.InvocationConfiguration.Output.WriteLine($"tank: appended {report.Cells.Count} cells of {report.Path} to {file} (now {lines.Count + 1} reports)");
        return 0;
    }
}
