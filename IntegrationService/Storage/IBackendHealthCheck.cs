namespace IntegrationService.Storage;

/// <summary>Pings one backend server for the readiness checks (<c>/health/ready</c>).</summary>
public interface IBackendHealthCheck
{
    /// <summary>Completes when the backend answered; throws when it did not.</summary>
    Task PingAsync(CancellationToken cancellationToken);
}
