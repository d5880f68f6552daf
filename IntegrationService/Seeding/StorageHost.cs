namespace IntegrationService.Seeding;

/// <summary>The storage registrations without the web server, for the command-line tools (seed, fill-queue, purge-queue, settle).</summary>
internal static class StorageHost
{
    public static async Task<IHost> StartAsync(IReadOnlyDictionary<string, string?>? settings = null)
    {
        var host = Build(settings);
        await host.StartAsync();
        return host;
    }

    /// <summary>Built, not started: the clients exist, nothing connects until asked.</summary>
    public static IHost Build(IReadOnlyDictionary<string, string?>? settings = null)
    {
        var builder = Host.CreateApplicationBuilder();
        // A tool's own settings win over the environment's (e.g. purge-queue's longer deadlines).
        if (settings is not null) builder.Configuration.AddInMemoryCollection(settings);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        // Logs go to stderr: stdout is the tools' answer (fill-queue's, purge-queue's and settle's JSON), which the bench parses.
        builder.Logging.AddConsole(o => o.LogToStandardErrorThreshold = LogLevel.Trace);
        builder.AddStorage();
        return builder.Build();
    }
}
