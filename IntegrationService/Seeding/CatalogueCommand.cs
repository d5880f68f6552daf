using System.CommandLine;
using System.Text.Json;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService catalogue [--json]</c>: the architectures this build serves, as
/// <c>GET /storages</c> answers, without starting anything or contacting a server. Tools that need
/// the catalogue before the service runs (the bench's matrix, the crash test's) read it here.
/// Settings come from appsettings.json beside the assembly and the usual Section__Key variables.
/// </summary>
public sealed class CatalogueCommand : Command
{
    private readonly Option<bool> _json = new("--json") { Description = "Print the catalogue as GET /storages answers it (a JSON array)" };

    public CatalogueCommand() : base("catalogue", "Lists the storage architectures, what they serve, their servers and their stated durability")
    {
        Add(_json);
        SetAction(parse => Run(parse.GetValue(_json), parse.InvocationConfiguration.Output));
    }

    private static int Run(bool json, TextWriter output)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { ContentRootPath = AppContext.BaseDirectory });
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.AddStorage();
        using var host = builder.Build(); // built, never started: no server is contacted
        var storages = StoragesEndpoint.Describe(host.Services.GetRequiredService<StorageRegistry>()).ToArray();
        if (json)
        {
            output.WriteLine(JsonSerializer.Serialize(storages, ApiJsonContext.Default.IEnumerableStorageDescription));
            return 0;
        }
        output.WriteLine($"{"architecture",-26} {"serves",-28} {"servers",-30} {"kill -9 loses",-15} power loss loses");
        foreach (var s in storages)
        {
            output.WriteLine($"{s.Name,-26} {string.Join(",", s.Serves),-28} {string.Join(",", s.Servers.Concat(s.Caches)),-30} " +
                $"{s.Durability.ProcessCrash,-15} {s.Durability.PowerLoss}{(s.Durability.LossWindowMs is { } ms ? $" ({ms} ms)" : "")}");
        }
        return 0;
    }
}
