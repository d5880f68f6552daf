using System.CommandLine;
using System.Diagnostics;
using IntegrationService.Queues;
using IntegrationService.Storage;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService fill-queue --queue NAME --depth N [--concurrency N]</c>: tops a queue up
/// to at least N waiting messages (generated ones, as <c>GET /write/{queue}</c> makes), through
/// the same store the service uses, with N concurrent writers (or, where the store has a bulk fill
/// such as PostgreSQL's COPY, in chunks). script/bench fills a queue this
/// way before a queue-read run so that the run never finds it empty. Prints the depth before
/// and after as JSON.
/// </summary>
public sealed class FillQueueCommand : Command
{
    private readonly Option<string> _queue = CommandLineOptions.Name("--queue", "The queue: an architecture with a queue, or an alias such as redis_aof", "name");
    private readonly Option<long> _depth = CommandLineOptions.WholeNumber("--depth", "The number of waiting messages to reach (none are taken away)", 0L, long.MaxValue, required: true);
    private readonly Option<int> _concurrency = CommandLineOptions.WholeNumber("--concurrency", "Concurrent writers", 1, int.MaxValue, defaultValue: 64);

    public FillQueueCommand() : base("fill-queue", "Tops a queue up to at least --depth generated messages through the service's own store; prints the depth before and after as JSON")
    {
        Add(_queue);
        Add(_depth);
        Add(_concurrency);
        SetAction((parse, _) => RunAsync(OptionsOf(parse)));
    }

    /// <summary>The options of a parsed command line; nothing is contacted.</summary>
    public FillQueueOptions OptionsOf(ParseResult parse) =>
        new(parse.GetRequiredValue(_queue), parse.GetRequiredValue(_depth), parse.GetRequiredValue(_concurrency));

    /// <summary>Messages per bulk fill, where the store has one.</summary>
    private const int BulkChunk = 20_000;

    private static async Task<int> RunAsync(FillQueueOptions options)
    {
        using var host = await StorageHost.StartAsync();
        if (await QueueToolStore.FindAsync(host, "fill-queue", options.Queue) is not { } found) return ServiceCli.UsageError;
        var (queue, store) = found;

        var stopwatch = Stopwatch.StartNew();
        var before = await store.CountAsync(CancellationToken.None);
        var remaining = Math.Max(0, options.Depth - before);
        if (store.BulkFiller is { } bulk)
        {
            while (remaining > 0)
            {
                var chunk = (int)Math.Min(remaining, BulkChunk);
                await bulk.FillAsync(Enumerable.Range(0, chunk).Select(_ => GeneratedMessage.Create()).ToList(), CancellationToken.None);
                remaining -= chunk;
            }
        }
        var writers = Enumerable.Range(0, options.Concurrency).Select(_ => Task.Run(async () =>
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
