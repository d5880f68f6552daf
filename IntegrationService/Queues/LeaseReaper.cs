namespace IntegrationService.Queues;

/// <summary>
/// Gives back the leases that ended, for a store whose server has no clock of its own to do it
/// (PostgreSQL, Redis): a loop that calls the store's reap every interval, started by the store's
/// first read in this process (so tools that only count or fingerprint a queue never write to it)
/// and stopped with the store. A failed reap (the server down) is tried again at the next tick;
/// the leases it missed are given back then, or by the next leased read, which reaps first.
/// </summary>
public sealed class LeaseReaper(Func<CancellationToken, Task> reap, TimeSpan every) : IAsyncDisposable
{
    private readonly CancellationTokenSource _stopping = new();
    private Task? _loop;

    public void Start()
    {
        if (Volatile.Read(ref _loop) is not null) return;
        var loop = new Task<Task>(RunAsync);
        if (Interlocked.CompareExchange(ref _loop, loop.Unwrap(), null) is null) loop.Start(TaskScheduler.Default);
    }

    private async Task RunAsync()
    {
        using var timer = new PeriodicTimer(every);
        try
        {
            while (await timer.WaitForNextTickAsync(_stopping.Token))
            {
                try
                {
                    await reap(_stopping.Token);
                }
                catch (Exception) when (!_stopping.IsCancellationRequested)
                {
                }
            }
        }
        catch (OperationCanceledException) when (_stopping.IsCancellationRequested)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        if (Volatile.Read(ref _loop) is { } loop) await loop;
        _stopping.Dispose();
    }
}
