namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// Connects the Tarantool client at start-up and keeps it connected. Start-up waits for one bounded
/// attempt (so the first requests find a connection) but never fails: if Tarantool is down the
/// service starts anyway, answers 503, and the background loop connects when the server returns.
/// </summary>
public sealed class TarantoolConnectionService(TarantoolConnection connection) : IHostedService, IDisposable
{
    private readonly CancellationTokenSource _stopping = new();
    private Task _loop = Task.CompletedTask;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        await connection.TryConnectAsync(cancellationToken).ConfigureAwait(false);
        _loop = Task.Run(() => connection.RunAsync(_stopping.Token), CancellationToken.None);
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
        await connection.DisposeAsync().ConfigureAwait(false);
    }

    public void Dispose() => _stopping.Dispose();
}
