using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace IntegrationService.Storage;

/// <summary>The framework's health check for one backend: a ping within <see cref="PingTimeout"/>.</summary>
internal sealed class BackendHealthCheck(IBackendHealthCheck backend) : IHealthCheck
{
    public static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(2);

    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken)
    {
        try
        {
            await backend.PingAsync(cancellationToken).WaitAsync(PingTimeout, cancellationToken);
            return HealthCheckResult.Healthy();
        }
        catch (Exception e) when (e is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            var reason = e is TimeoutException ? $"no answer within {PingTimeout.TotalSeconds} s" : e.Message;
            return new HealthCheckResult(context.Registration.FailureStatus, reason);
        }
    }
}
