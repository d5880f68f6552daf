namespace IntegrationService.Storage;

/// <summary>Pings one backend server for <c>GET /health</c>.</summary>
public interface IBackendHealthCheck
{
    /// <summary>The backend's name in the health report, e.g. "postgres".</summary>
    string Name { get; }

    /// <summary>Completes when the backend answered; throws when it did not.</summary>
    Task PingAsync(CancellationToken cancellationToken);
}
