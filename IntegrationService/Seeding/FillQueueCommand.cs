using System.Diagnostics;
using System.Globalization;
using IntegrationService.Queues;
using IntegrationService.Storage;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService fill-queue --queue NAME --depth N [--concurrency N]</c>: tops a queue up
/// to at least N waiting messages (generated ones, as <c>GET /write/{queue}</c> makes), through
/// the same store the service uses, with N concurrent writers. script/bench fills a queue this
/// way before a queue-read run so that the run never finds it empty. Prints the depth before
/// and after as JSON.
/// </summary>
public static class FillQueueCommand
{
    public static async Task<int> RunAsync(string[] args)
    {
        string? queue = null;
        long depth = -1;
        var concurrency = 64;
        for (var i = 0; i < args.Length; i++)
        {
            var value = i + 1 < args.Length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--queue" when value is not null: queue = value; i++; break;
                case "--depth" when value is not null && long.TryParse(value, CultureInfo.InvariantCulture, out depth) && depth >= 0: i++; break;
                case "--concurrency" when value is not null && int.TryParse(value, CultureInfo.InvariantCulture, out concurrency) && concurrency > 0: i++; break;
                default:
                    await Console.Error.WriteLineAsync($"fill-queue: unknown, incomplete or invalid option '{args[i]}'. Options: --queue NAME --depth N (N >= 0) [--concurrency N (N > 0)]");
                    return 2;
            }
        }
        if (queue is null || depth < 0)
        {
            await Console.Error.WriteLineAsync("fill-queue: --queue NAME and --depth N are required");
            return 2;
        }

        using var host = await StorageHost.StartAsync();
        var registry = host.Services.GetRequiredService<StorageRegistry>();
        IQueueStore store;
        try
        {
            (queue, store) = registry.Queue(queue);
        }
        catch (UnknownStorageException e)
        {
            await Console.Error.WriteLineAsync($"fill-queue: {e.Message}");
            return 2;
        }

        var stopwatch = Stopwatch.StartNew();
        var before = await store.CountAsync(CancellationToken.None);
        var remaining = Math.Max(0, depth - before);
        var writers = Enumerable.Range(0, concurrency).Select(_ => Task.Run(async () =>
        {
            while (Interlocked.Decrement(ref remaining) >= 0)
            {
                await store.EnqueueAsync(GeneratedMessage.Create(), CancellationToken.None);
            }
        }));
        await Task.WhenAll(writers);
        var after = await store.CountAsync(CancellationToken.None);
        Console.WriteLine(FormattableString.Invariant(
            $"{{\"queue\":\"{queue}\",\"depth_before\":{before},\"depth_after\":{after},\"seconds\":{stopwatch.Elapsed.TotalSeconds:F1}}}"));
        await host.StopAsync();
        return 0;
    }
}
