using System.CommandLine;
using System.CommandLine.Help;

namespace IntegrationService.Seeding;

/// <summary>
/// The service's command-line tools (<c>seed</c>, <c>fill-queue</c>, <c>purge-queue</c>, <c>settle</c>, <c>catalogue</c>, <c>fingerprint</c>) on System.CommandLine. Only an
/// argument list that starts with one of their names comes here: anything else is the web host's
/// (<c>--urls …</c>, <c>--Section:Key=value</c>), which ASP.NET's configuration reads untouched.
/// A bad command line prints <c>&lt;command&gt;: error: …</c> and exits 2, as before the move.
/// </summary>
public static class ServiceCli
{
    public const int UsageError = 2;

    /// <summary>Whether these arguments name a tool rather than configure the web host.</summary>
    public static bool Handles(IReadOnlyList<string> args) => args is ["seed" or "fill-queue" or "purge-queue" or "settle" or "catalogue" or "fingerprint", ..];

    /// <summary>A fresh command tree (each parse its own, so parallel tests share nothing).</summary>
    public static Command Build()
    {
        var root = new Command("IntegrationService", "The web API; with a command, one of its tools (without one it serves HTTP)")
        {
            new SeedCommand(),
            new FillQueueCommand(),
            new PurgeQueueCommand(),
            new SettleCommand(),
            new CatalogueCommand(),
            new FingerprintCommand(),
        };
        root.Options.Add(new HelpOption());
        return root;
    }

    /// <summary>Parses without contacting anything. Response files are off: values are taken verbatim.</summary>
    public static ParseResult Parse(IReadOnlyList<string> args) =>
        Build().Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });

    public static Task<int> RunAsync(IReadOnlyList<string> args) => RunAsync(args, Console.Out, Console.Error);

    /// <summary>Parses and runs; help and parse errors go to the given writers.</summary>
    public static async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error)
    {
        var parse = Parse(args);
        if (parse.Errors.Count > 0)
        {
            var command = parse.CommandResult.Command.Name;
            foreach (var e in parse.Errors) await error.WriteLineAsync($"{command}: error: {e.Message}");
            await error.WriteLineAsync($"{command}: see 'IntegrationService {command} --help'");
            return UsageError;
        }
        // Exceptions propagate as before, and Ctrl+C ends the process at once, as before.
        return await parse.InvokeAsync(new InvocationConfiguration
        {
            Output = output,
            Error = error,
            EnableDefaultExceptionHandler = false,
            ProcessTerminationTimeout = null,
        });
    }
}
