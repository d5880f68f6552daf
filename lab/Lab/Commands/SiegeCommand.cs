using System.CommandLine;
using Lab.Tools;
using Harness.CommandLine;
using Tank.Commands;

namespace Lab.Commands;

/// <summary>
/// <c>lab siege</c>: the original PHP study's siege matrix against the queue routes of a running
/// service, its queues from the service's catalogue; or, with <c>--report</c>, the table rebuilt
/// from a run's raw outputs. Given <c>--service-dll</c> instead of <c>--url</c>, it starts the
/// service itself on <c>--port</c> for the run (script/siege does so, once the servers are up).
/// </summary>
public sealed class SiegeCommand : Command
{
    private readonly Option<string?> _url = CliOption.Create<string?>("--url", "A running service's base URL (http://host:port); required unless --service-dll or --report", ValueParsers.HttpUrl, "url");
    private readonly Option<string?> _serviceDll = CliOption.Create<string?>("--service-dll", "Instead of --url: start this build of the service for the run, on --port, its log in the run's directory", ValueParsers.NonEmpty, "file");
    private readonly Option<long> _port = CliOption.Create("--port", "The port of the service --service-dll starts", ValueParsers.WholeNumber(min: 1024, max: 65535), "port").WithDefault(18090);
    private readonly Option<string?> _out = CliOption.Create<string?>("--out", "The run's directory: siegerc, about.md, raw/*.txt (every siege output) and summary.md; required with --url", ValueParsers.NonEmpty, "dir");
    private readonly Option<string[]?> _queue = CliOption.Create<string[]?>("--queue", "Only these queues, as the routes name them (default: every queue of GET /storages, under the original study's names)", ToolValueParsers.Names, "a,b");
    private readonly Option<int[]?> _concurrency = CliOption.Create<int[]?>("--concurrency", "siege's -c values (default 10,25,50,100,1000; 10,100 with --quick)", ToolValueParsers.PositiveWholeNumbers, "c,c");
    private readonly Option<long?> _seconds = CliOption.Create("--seconds", "siege's -t for each run (default 30; 3 with --quick)", ValueParsers.WholeNumber(min: 1, max: 86_400).Optional(), "s");
    private readonly Option<bool> _quick = CliOption.Flag("--quick", "Concurrency 10 and 100 for 3 s each");
    private readonly Option<string> _connection = CliOption.Create("--connection", "HTTP connection mode in siege's rc file", ValueParsers.Choice(SiegeSettings.Connections, c => c), "close|keep-alive")
        .WithDefault("close");
    private readonly Option<string?> _reports = CliOption.Create<string?>("--reports", "Without --out, the run goes to DIR/siege-<UTC>; a run folder DIR/siege-* becomes DIR/siege-latest", ValueParsers.NonEmpty, "dir");
    private readonly Option<string?> _report = CliOption.Create<string?>("--report", "Rebuild summary.md from this run directory's raw outputs instead of running siege", ValueParsers.NonEmpty, "dir");

    public SiegeCommand() : base("siege", "The original study's siege matrix against a running service's queues (/write then /read per queue and concurrency); exits 1 when a run failed or printed no statistics")
    {
        foreach (var option in new Option[] { _url, _serviceDll, _port, _out, _queue, _concurrency, _seconds, _quick, _connection, _reports, _report }) Add(option);
        SetAction((parse, _) => RunAsync(parse));
    }

    /// <summary>The settings of a parsed command line with --url (null with --report); nothing runs.</summary>
    public SiegeSettings? SettingsOf(ParseResult parse)
    {
        var url = parse.GetValue(_url);
        var serviceDll = parse.GetValue(_serviceDll);
        var report = parse.GetValue(_report);
        if (report is not null)
        {
            if (url is not null || serviceDll is not null) throw new InputException("--report rebuilds a table from files: it takes no --url or --service-dll");
            return null;
        }
        if (url is not null && serviceDll is not null) throw new InputException("--url is a running service, --service-dll one to start: not both");
        url ??= serviceDll is not null
            ? $"http://127.0.0.1:{parse.GetRequiredValue(_port)}"
            : throw new InputException("--url is required (or --service-dll FILE, or --report DIR)");
        var quick = parse.GetValue(_quick);
        return new SiegeSettings(
            url,
            parse.GetValue(_queue) is { Length: > 0 } queues ? queues : null,
            parse.GetValue(_concurrency) is { Length: > 0 } concurrencies ? concurrencies : (quick ? SiegeSettings.QuickConcurrencies : SiegeSettings.StudyConcurrencies),
            (int)(parse.GetValue(_seconds) ?? (quick ? SiegeSettings.QuickSeconds : SiegeSettings.StudySeconds)),
            parse.GetRequiredValue(_connection),
            parse.GetValue(_out) ?? (parse.GetValue(_reports) is { } reports
                ? SiegeLatest.RunDir(reports, DateTime.UtcNow)
                : throw new InputException("--out or --reports is required with --url or --service-dll")));
    }

    private async Task<int> RunAsync(ParseResult parse)
    {
        var settings = SettingsOf(parse);
        var output = parse.InvocationConfiguration.Output;
        var error = parse.InvocationConfiguration.Error;
        try
        {
            if (settings is null) return await SiegeReport.WriteAsync(parse.GetValue(_report)!, output, error);
            await using var service = parse.GetValue(_serviceDll) is { } serviceDll
                ? await StartedService.StartAsync(serviceDll, settings.Url, Path.Combine(Directory.CreateDirectory(settings.Out).FullName, "service.log"))
                : null;
            try
            {
                return await new SiegeRunner(settings, output, error).RunAsync();
            }
            finally
            {
                if (parse.GetValue(_reports) is { } reports) SiegeLatest.Point(reports, settings.Out, error);
            }
        }
        catch (Exception e) when (e is ToolException or Harness.Catalogue.CatalogueException)
        {
            await error.WriteLineAsync($"tank: error: {e.Message}");
            return 1;
        }
    }
}
