using Beanstalkd.Client;

namespace IntegrationService.Storage.Beanstalkd;

internal sealed class BeanstalkdHealthCheck(BeanstalkdClient client) : IBackendHealthCheck
{
    public async Task PingAsync(CancellationToken cancellationToken) => await client.PingAsync(cancellationToken);
}
