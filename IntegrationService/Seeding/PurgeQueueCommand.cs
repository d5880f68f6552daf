using System.CommandLine;
using System.Diagnostics;
using IntegrationService.Queues;
using IntegrationService.Storage;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService purge-queue --queue NAME</c>: empties a queue through the same store the
/// service uses, with the store's own fast primitive (<see cref="IQueueStore.PurgeAsync"/>), so that the bench
/// starts every repetition of a queue cell from the same state (then fill-queue tops it up to the
/// stated depth). Prints the depth before and after, and the seconds it took, as JSON; exits 1 when
/// the queue is not empty afterwards, given a few seconds to show the purge (<see cref="SettleDelays"/>: someone
/// wrote meanwhile), as the repetition would not start from an empty queue.
/// </summary>
public sealed class PurgeQueueCommand : Command
{
    public const int NotEmptyAfterwards = 1;

    /// <summary>
    /// A purge of millions of messages takes longer than the service's per-request deadlines (1–2 s):
    /// a JetStream stream on disk answered a purge of a bench's queue after more than 2 s. The tool
    /// waits up to a minute instead.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string?> Deadlines = new Dictionary<string, string?>
    {
        ["Postgres:CommandTimeoutSeconds"] = "60", ["Redis:TimeoutMs"] = "60000", ["Tarantool:RequestTimeoutMs"] = "60000",
        ["Beanstalkd:TimeoutMs"] = "60000", ["RabbitMq:TimeoutMs"] = "60000", ["Nats:TimeoutMs"] = "60000",
    };

    private readonly Option<string> _queue = CommandLineOptions.Name("--queue", "The queue: an architecture with a queue, or an alias such as redis_aof", "name");

    public PurgeQueueCommand() : base("purge-queue", "Empties a queue with its store's own purge through the service's own store; prints the depth before and after as JSON")
    {
        Add(_queue);
        SetAction((parse, _) => RunAsync(OptionsOf(parse)));
    }

    /// <summary>
    /// How long a queue that still counts messages right after its purge is given to show the purge: a replicated
    /// stream's consumer (nats-r3) can be led by another node than the stream, and counted 10 811 of 50 910 messages
    /// still pending right after the stream had purged them all. About 3 s in all; a writer still writing keeps the
    /// count up through them.
    /// </summary>
    public static readonly IReadOnlyList<TimeSpan> SettleDelays = [.. new[] { 50, 100, 200, 400, 800, 1600 }.Select(ms => TimeSpan.FromMilliseconds(ms))];

    /// <summary>
    /// The queue's count after a purge: read again after each of <paramref name="delays"/> while it is not 0; the last
    /// count read.
    /// </summary>
    public static async Task<long> SettledCountAsync(Func<Task<long>> count, IReadOnlyList<TimeSpan> delays)
    {
        var after = await count();
        foreach (var delay in delays)
        {
            if (after == 0) break;
            await Task.Delay(delay);
            after = await count();
        }
        return after;
    }

    /// <summary>The options of a parsed command line; nothing is contacted.</summary>
    public PurgeQueueOptions OptionsOf(ParseResult parse) => new(parse.GetRequiredValue(_queue));

    private static async Task<int> RunAsync(PurgeQueueOptions options)
    {
        using var host = await StorageHost.StartAsync(Deadlines);
        if (await QueueToolStore.FindAsync(host, "purge-queue", options.Queue) is not { } found) return ServiceCli.UsageError;
        var (queue, store) = found;

        var stopwatch = Stopwatch.StartNew();
        var before = await store.CountAsync(CancellationToken.None);
        var removed = await store.PurgeAsync(CancellationToken.None);
        var after = await SettledCountAsync(() => store.CountAsync(CancellationToken.None), SettleDelays);
        Console.WriteLine(FormattableString.Invariant(
            $"{{\"queue\":\"{queue}\",\"depth_before\":{before},\"depth_after\":{after},\"seconds\":{stopwatch.Elapsed.TotalSeconds:F3}}}"));
        await host.StopAsync();
        if (after == 0) return 0;
        await Console.Error.WriteLineAsync($"purge-queue: error: {queue} still holds {after} messages after the purge removed {removed}: something wrote to it meanwhile");
        return NotEmptyAfterwards;
    }
}
