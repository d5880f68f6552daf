using System.CommandLine;
using System.Text.Json;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService catalogue [--json | --markdown | --write FILE]</c>: the architectures this build
/// serves, as <c>GET /storages</c> answers, without starting anything or contacting a server. Tools that need
/// the catalogue before the service runs (the bench's matrix, the crash test's) read it here (<c>--json</c>);
/// <c>--markdown</c> prints it as docs/STORAGES.md's tables (<see cref="CatalogueMarkdown"/>) and
/// <c>--write FILE</c> replaces that page's block between <c>&lt;!-- catalogue:begin --&gt;</c> and
/// <c>&lt;!-- catalogue:end --&gt;</c> with them. Settings come from appsettings.json beside the assembly
/// and the usual Section__Key variables.
/// </summary>
public sealed class CatalogueCommand : Command
{
    private readonly Option<bool> _json = new("--json") { Description = "Print the catalogue as GET /storages answers it (a JSON array)" };
    private readonly Option<bool> _markdown = new("--markdown") { Description = "Print the catalogue as docs/STORAGES.md's tables (Markdown)" };
    private readonly Option<string> _write = new("--write")
    {
        Description = "Replace the block between <!-- catalogue:begin --> and <!-- catalogue:end --> of FILE (docs/STORAGES.md) with the --markdown tables",
        HelpName = "FILE",
    };

    public CatalogueCommand() : base("catalogue", "Lists the storage architectures, what they serve, their servers and their stated durability")
    {
        Add(_json);
        Add(_markdown);
        Add(_write);
        Validators.Add(result =>
        {
            string?[] chosen = [result.GetValue(_json) ? "--json" : null, result.GetValue(_markdown) ? "--markdown" : null, result.GetResult(_write) is not null ? "--write" : null];
            if (chosen.OfType<string>().ToArray() is { Length: > 1 } formats) result.AddError($"{string.Join(" and ", formats)}: choose one");
        });
        SetAction(parse => Run(parse.GetValue(_json), parse.GetValue(_markdown), parse.GetValue(_write),
            parse.InvocationConfiguration.Output, parse.InvocationConfiguration.Error));
    }

    /// <summary>The catalogue as <c>GET /storages</c> answers it, from a host built with this build's settings and never started.</summary>
    private static StorageDescription[] Describe()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { ContentRootPath = AppContext.BaseDirectory });
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.AddStorage();
        using var host = builder.Build(); // built, never started: no server is contacted
        return StoragesEndpoint.Describe(host.Services.GetRequiredService<StorageRegistry>()).ToArray();
    }

    private static int Run(bool json, bool markdown, string? write, TextWriter output, TextWriter error)
    {
        var storages = Describe();
        if (json)
        {
            output.WriteLine(JsonSerializer.Serialize(storages, ApiJsonContext.Default.IEnumerableStorageDescription));
            return 0;
        }
        if (markdown)
        {
            output.Write(CatalogueMarkdown.Render(storages));
            return 0;
        }
        if (write is not null) return Write(write, CatalogueMarkdown.Render(storages), output, error);
        output.WriteLine($"{"architecture",-26} {"serves",-28} {"servers",-30} {"kill -9 loses",-15} power loss loses");
        foreach (var s in storages)
        {
            output.WriteLine($"{s.Name,-26} {string.Join(",", s.Serves),-28} {string.Join(",", s.Servers.Concat(s.Caches)),-30} " +
                $"{s.Durability.ProcessCrash + (s.Durability.ProcessCrashWindowMs is { } kill ? $" ({kill} ms)" : ""),-15} " +
                $"{s.Durability.PowerLoss}{(s.Durability.LossWindowMs is { } ms ? $" ({ms} ms)" : "")}");
        }
        return 0;
    }

    /// <summary>Replaces the page's catalogue block; a missing file or block is exit code 1, the page untouched.</summary>
    private static int Write(string path, string block, TextWriter output, TextWriter error)
    {
        if (!File.Exists(path))
        {
            error.WriteLine($"catalogue: error: --write: '{path}' does not exist");
            return 1;
        }
        var page = File.ReadAllText(path);
        if (CatalogueMarkdown.ReplaceBlock(page, block) is not { } replaced)
        {
            error.WriteLine($"catalogue: error: --write: '{path}' has no '{CatalogueMarkdown.BlockStart}' … '{CatalogueMarkdown.BlockEnd}' block to replace");
            return 1;
        }
        if (replaced == page)
        {
            output.WriteLine($"{path}: the catalogue block is up to date");
            return 0;
        }
        File.WriteAllText(path, replaced);
        output.WriteLine($"{path}: the catalogue block rewritten");
        return 0;
    }
}
