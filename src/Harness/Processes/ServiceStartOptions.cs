namespace Harness.Processes;

/// <summary>How a <see cref="ServiceProcess"/> runs besides its DLL, URL and log: the defaults are the bench's.</summary>
public sealed record ServiceStartOptions
{
    public static ServiceStartOptions Default { get; } = new();

    /// <summary>Its working directory, so its content root (the appsettings.json it reads); null: the caller's.</summary>
    public string? Directory { get; init; }

    /// <summary>Append to the log rather than start it afresh: a service restarted into one log (crash's matrix).</summary>
    public bool AppendLog { get; init; }

    /// <summary>Settings added to its command line (<c>--Section:Key=value</c>), after the URL and the log level.</summary>
    public IReadOnlyList<string> Arguments { get; init; } = [];

    /// <summary>How long a stop waits after SIGTERM before SIGKILL.</summary>
    public TimeSpan StopTimeout { get; init; } = TimeSpan.FromSeconds(30);
}
