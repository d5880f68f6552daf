using Beanstalkd.Client;

namespace IntegrationService.Storage.Beanstalkd;

/// <summary>
/// Runs the Beanstalkd client's reconnect loop in the background: it connects at start-up and after a
/// loss, so requests find a connection. Start-up does not wait for it: calls still connect on demand,
/// and if beanstalkd is down the service starts anyway and answers 503.
/// </summary>
public sealed class BeanstalkdConnectionService(BeanstalkdClient client) : IHostedService, IDisposable
{
    private readonly CancellationTokenSource _stopping = new();
    private Task _loop = Task.CompletedTask;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _loop = Task.Run(() => client.RunAsync(_stopping.Token), CancellationToken.None);
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        try
        {
            await _loop.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The host's shutdown timeout ran out (on something else): the process ends anyway, without a crash.
        }
    }

    public void Dispose() => _stopping.Dispose();
}
