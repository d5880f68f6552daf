using System.CommandLine;
using System.Globalization;
using Harness.Catalogue;
using Crash.Matrix;
using Crash.Rates;
using Crash.RunLengths;
using Tank.Commands;
using Harness.CommandLine;

namespace Crash.Commands;

/// <summary>
/// <c>crash matrix</c>: every run the catalogue calls for (each architecture serving each --kind,
/// with each --fault), one after the other against the service at --url, which it starts from
/// --service-dir before each run; the faults act on the servers through --services. script/crashtest
/// is its wrapper.
/// </summary>
public sealed class MatrixCommand : Command
{
    private readonly Option<string> _url = CliOption.Create("--url", "The service's base URL", ValueParsers.HttpUrl, "url").Require();
    private readonly Option<string> _serviceDir = CliOption.Create("--service-dir", "The published service (IntegrationService.dll), started from there before every run; its log: DIR/service.log",
        ValueParsers.NonEmpty, "dir").Require();
    private readonly Option<string> _services = CliOption.Create("--services", "script/services: the server faults act through it (pid, up, powercut)", ValueParsers.NonEmpty, "script").Require();
    private readonly Option<string> _catalogue = CliOption.Create("--catalogue", "The catalogue (IntegrationService catalogue --json, or GET /storages saved)", ValueParsers.NonEmpty, "file").Require();
    private readonly Option<string> _out = CliOption.Create("--out", "The directory for one JSON per run, summary.json and summary.md", ValueParsers.NonEmpty, "dir").Require();
    private readonly Option<string> _storage = CliOption.Create("--storage", "Architectures, comma-separated (names or aliases; default: every one in the catalogue)", ValueParsers.NonEmpty, "a,b");
    private readonly Option<string> _kind = CliOption.Create("--kind", "Kinds of write: author, item, queue (read with GET /read), queue-leased (read with POST /read?lease=, acknowledged once logged), kv", ValueParsers.NonEmpty, "a,b").WithDefault("author,item");
    private readonly Option<string> _fault = CliOption.Create("--fault", $"Faults: {string.Join(", ", Faults.All.Select(f => f.Name))}", ValueParsers.NonEmpty, "a,b")
        .WithDefault(string.Join(",", Faults.Default));
    private readonly Option<double?> _seconds = CliOption.Create("--seconds", "How long each run writes (default 20, --quick 10); longer where the fault's restart budget and p99's return need it, saying so",
        ValueParsers.PositiveNumber.Optional(), "seconds");
    private readonly Option<string> _root = CliOption.Create("--root", "The checkout whose published bench report (docs/RESULTS.md's, else reports/latest) sets the rates without --rate or --rate-from (default: the current directory)",
        ValueParsers.NonEmpty, "dir").WithDefault(".");
    private readonly Option<string> _restartBudgets = CliOption.Create("--restart-budgets", "Seconds each server and the service may take to restart (default: restart-budgets.json beside crash.dll)",
        ValueParsers.NonEmpty, "file");
    private readonly RateOptions _rates = new();
    private readonly Option<double?> _stopSeconds = CliOption.Create("--stop-seconds", "How long db-stop stops the servers (default 5, --quick 3)", ValueParsers.PositiveNumber.Optional(), "seconds");
    private readonly Option<double> _recoverSeconds = CliOption.Create("--recover-seconds",
        "How long a run waits for the API after its writes, and for its read-back or drain, before it reports the API as not back", ValueParsers.PositiveNumber, "seconds").WithDefault(60);
    private readonly Option<double> _sloMs = CliOption.Create("--slo-ms", "The p99 the timeline's recovery is measured against (default 10, the bench's)", ValueParsers.PositiveNumber, "ms").WithDefault(10);
    private readonly Option<bool> _quick = CliOption.Flag("--quick", "10 s runs at 100 writes/s, a 3 s stop, one run of each failover row");
    private readonly Option<long?> _failoverRepeats = CliOption.Create("--failover-repeats",
        "Runs of each failover row (primary-kill, primary-stop), reported as a distribution (default 5, --quick 1)", ValueParsers.WholeNumber(1, 100).Optional(), "N");
    private readonly Option<string> _only = CliOption.Create("--only",
        "Only these rows of the matrix --storage, --kind and --fault make, each 'architecture kind fault', comma-separated", ValueParsers.NonEmpty, "'a k f',…");
    private readonly Option<bool> _fullLength = CliOption.Flag("--full-length",
        "Every run writes for its whole planned length; without it a run extended for its fault's restart budget ends 2 s after p99 held under the SLO for 3 s after the fault, never before --seconds");
    private readonly Option<string> _release = CliOption.Create("--release",
        "Servers (script/services names) to stop once no later run needs them (those the caller found down); each run brings its own architecture's servers and caches up", ValueParsers.NonEmpty, "a,b");
    private readonly Option<bool> _check = CliOption.Flag("--check", "Exit 1 if a run loses more than its architecture promises for the fault, or its API does not come back");
    private readonly Option<bool> _plan = CliOption.Flag("--plan", "Print the runs and their fault targets, run nothing");
    private readonly Option<KeyRange> _items = CliOption.Create("--items", "The item ids item runs write", ValueParsers.KeyRange, "A-B").WithDefault(new KeyRange(1000, 1999));
    private readonly Option<long> _locations = CliOption.Create("--locations", "Location ids 1..N exist (the data set script/crashtest loads)",
        ValueParsers.WholeNumber(min: ItemLocations.BlockSize), "n").WithDefault(20_000);

    public MatrixCommand() : base("matrix", "Every run the catalogue calls for: each architecture serving each --kind, with each --fault; a result per run, summary.json and summary.md in --out")
    {
        foreach (var option in new Option[] { _url, _serviceDir, _services, _catalogue, _out, _storage, _kind, _fault, _seconds, _root, _restartBudgets, _stopSeconds, _quick, _failoverRepeats, _only, _fullLength, _release, _check, _plan, _items, _locations, _sloMs, _recoverSeconds }.Concat(_rates.All))
            Add(option);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var catalogueJson = File.ReadAllText(parse.GetRequiredValue(_catalogue));
        var catalogue = StorageCatalogue.Parse(catalogueJson);
        var quick = parse.GetValue(_quick);
        var rows = MatrixPlan.Build(catalogue, List(parse.GetValue(_storage)), List(parse.GetRequiredValue(_kind)), List(parse.GetRequiredValue(_fault)),
            (int)(parse.GetValue(_failoverRepeats) ?? (quick ? 1 : 5)), List(parse.GetValue(_only)));
        var options = new MatrixOptions
        {
            Url = parse.GetRequiredValue(_url),
            ServiceDir = Path.GetFullPath(parse.GetRequiredValue(_serviceDir)),
            Services = Path.GetFullPath(parse.GetRequiredValue(_services)),
            Out = Path.GetFullPath(parse.GetRequiredValue(_out)),
            Seconds = parse.GetValue(_seconds) ?? (quick ? 10 : 20),
            Rates = _rates.Rule(parse, quick, Path.GetFullPath(parse.GetRequiredValue(_root))),
            RestartBudgets = RestartBudgets.Load(parse.GetValue(_restartBudgets) ?? RestartBudgets.DefaultPath),
            BenchCatalogue = catalogue,
            StopSeconds = parse.GetValue(_stopSeconds) ?? (quick ? 3 : 5),
            Items = parse.GetRequiredValue(_items),
            Locations = parse.GetRequiredValue(_locations),
            Check = parse.GetValue(_check),
            FullLength = parse.GetValue(_fullLength),
            Release = List(parse.GetValue(_release)).ToHashSet(StringComparer.Ordinal),
            SloMs = parse.GetRequiredValue(_sloMs),
            RecoverSeconds = parse.GetRequiredValue(_recoverSeconds),
        };
        var runner = new MatrixRunner(options, catalogue);
        parse.InvocationConfiguration.Error.WriteLine($"crash: {options.Rates.Describe()}");
        // Every run's options are checked before anything runs (an item run needs rate × seconds ≤ the location sets).
        var runs = rows.Select(row => runner.RunOptions(row, Path.Combine(options.Out, row.FileName))).ToList();
        if (parse.GetValue(_plan))
        {
            foreach (var (row, run) in rows.Zip(runs))
                parse.InvocationConfiguration.Output.WriteLine($"{row.Label}\t{string.Join(",", row.Fault.Targets(row.Storage).DefaultIfEmpty("the service"))}\t{row.Fault.Promised(row.Storage)}\t{Length(run)}\t{Rate(run)}");
            return 0;
        }
        return runner.RunAsync(rows).GetAwaiter().GetResult();
    }

    internal static string Rate(RunRate rate) => string.Create(CultureInfo.InvariantCulture, $"{rate.Rate}/s ({rate.Source})");

    internal static string Rate(CrashOptions run) => string.Create(CultureInfo.InvariantCulture, $"{run.Rate}/s ({run.RateSource})");

    internal static string Length(CrashOptions run) =>
        string.Create(CultureInfo.InvariantCulture, $"{(run.EndEarly ? "up to " : "")}{run.Seconds} s ({run.SecondsSource}{(run.EndEarly ? "; ends early once p99 held back" : "")})");

    /// <summary>What a run's log line says before it starts: its rate and length, and where each came from.</summary>
    internal static string RateAndLength(CrashOptions run) => $"{Rate(run)}; {Length(run)}";

    private static string[] List(string? text) =>
        text is null ? [] : text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
