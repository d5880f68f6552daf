using System.CommandLine;
using Lab.Tools;
using Harness.CommandLine;
using Tank.Commands;

namespace Lab.Commands;

/// <summary>
/// <c>lab ab</c>: the original Go benchmark's ApacheBench reads and writes of item locations on
/// every item architecture of a running service's catalogue, as a Markdown table (script/ab).
/// </summary>
public sealed class AbCommand : Command
{
    private readonly Option<string> _url = CliOption.Create("--url", "The service's base URL (http://host:port)", ValueParsers.HttpUrl, "url").Require();
    private readonly Option<long> _concurrency = CliOption.Create("--concurrency", "ab's -c", ValueParsers.WholeNumber(min: 1, max: 20_000), "n").WithDefault(100);
    private readonly Option<long> _requests = CliOption.Create("--requests", "ab's -n, for the reads and again for the writes", ValueParsers.WholeNumber(min: 1, max: int.MaxValue), "n").WithDefault(2000);
    private readonly Option<long> _item = CliOption.Create("--item", "The item read and written (the original benchmark used item 5)", ValueParsers.WholeNumber(min: 1), "id").WithDefault(5);
    private readonly Option<string[]?> _storage = CliOption.Create<string[]?>("--storage", "Only these architectures (default: every one of GET /storages that serves items)", ToolValueParsers.Names, "a,b");

    public AbCommand() : base("ab", "The original Go benchmark's ab runs (GET and POST /item/{id}/locations) on every item architecture of a running service; exits 1 when ab gave up on a run")
    {
        _concurrency.Aliases.Add("-c");
        _requests.Aliases.Add("-n");
        foreach (var option in new Option[] { _url, _concurrency, _requests, _item, _storage }) Add(option);
        SetAction((parse, _) => RunAsync(parse));
    }

    /// <summary>The settings of a parsed command line; nothing runs.</summary>
    public AbSettings SettingsOf(ParseResult parse) => new(
        parse.GetRequiredValue(_url),
        parse.GetValue(_storage) is { Length: > 0 } storages ? storages : null,
        (int)parse.GetRequiredValue(_concurrency),
        (int)parse.GetRequiredValue(_requests),
        parse.GetRequiredValue(_item));

    private async Task<int> RunAsync(ParseResult parse)
    {
        var error = parse.InvocationConfiguration.Error;
        try
        {
            return await new AbRunner(SettingsOf(parse), parse.InvocationConfiguration.Output, error).RunAsync();
        }
        catch (Exception e) when (e is ToolException or Harness.Catalogue.CatalogueException)
        {
            await error.WriteLineAsync($"tank: error: {e.Message}");
            return 1;
        }
    }
}
