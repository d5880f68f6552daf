namespace IntegrationService.Seeding;

/// <summary>The storage registrations without the web server, started, for the command-line tools (seed, fill-queue).</summary>
internal static class StorageHost
{
    public static async Task<IHost> StartAsync()
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.AddStorage();
        var host = builder.Build();
        await host.StartAsync();
        return host;
    }
}
