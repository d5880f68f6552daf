using System.CommandLine;
using Lab.Compare;
using Harness.CommandLine;
using Tank.Commands;

namespace Lab.Commands;

/// <summary><c>lab compare BASE NEW [--threshold 10]</c>: per cell, capacity, p99 and CPU per request of two reports; exit 1 when a cell got worse.</summary>
public sealed class CompareCommand : Command
{
    public const int Regressed = 1;

    private readonly Argument<string> _base = new("base") { Description = "The earlier report folder (with summary.json from lab report)" };
    private readonly Argument<string> _new = new("new") { Description = "The later report folder" };
    private readonly Option<double> _threshold = CliOption.Create("--threshold", "The change, in % of BASE, a figure must exceed (and leave the runs' spread) to count",
        ValueParsers.NonNegativeNumber, "percent").WithDefault(10);

    public CompareCommand() : base("compare", "Compares two reports per architecture × scenario: capacity, p99, CPU per request; exit 1 when any cell got worse")
    {
        Add(_base);
        Add(_new);
        Add(_threshold);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var threshold = parse.GetRequiredValue(_threshold);
        var before = ReportFileReader.Read(parse.GetRequiredValue(_base));
        var after = ReportFileReader.Read(parse.GetRequiredValue(_new));
        var cells = ReportComparer.Compare(before, after, threshold);
        parse.InvocationConfiguration.Output.Write(ComparisonText.Render(before, after, cells, threshold));
        return cells.Any(c => c.Regressed) ? Regressed : 0;
    }
}
