using System.Globalization;
using System.Reflection;
using System.Text;
using IntegrationService.Storage.RabbitMq;
using RabbitMQ.Client;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// The RabbitMQ queue's take (<see cref="RabbitMqQueueStore.TakeAsync(IChannel, string, int, CancellationToken)"/>)
/// on a channel faked in memory (a <see cref="DispatchProxy"/> that answers basic.get and basic.ack
/// only): gets one after another until the count or an empty queue, then one multiple ack.
/// </summary>
public sealed class RabbitMqQueueTakeTests
{
    [Fact]
    public async Task ATakeGetsWithAutoAckUntilTheCountOldestFirstAndSendsNoAck()
    {
        var channel = FakeChannel.Holding(5);

        var taken = await RabbitMqQueueStore.TakeAsync(channel.Proxy, "integration", 3, CancellationToken.None);

        Assert.Equal([1001L, 1002L, 1003L], taken.Select(m => m.Id)); // oldest first
        Assert.Equal("{\"n\":1}", Encoding.UTF8.GetString(taken[0].Body.Span));
        Assert.Equal(["get integration auto-ack", "get integration auto-ack", "get integration auto-ack"], channel.Calls);
    }

    [Fact]
    public async Task ATakeStopsAtTheFirstEmptyGet()
    {
        var channel = FakeChannel.Holding(2);

        var taken = await RabbitMqQueueStore.TakeAsync(channel.Proxy, "integration", 16, CancellationToken.None);

        Assert.Equal(2, taken.Count);
        Assert.Equal(3, channel.Calls.Count);
    }

    [Fact]
    public async Task AGetThatFailsAfterOthersEndsTheTakeWithWhatItGotAndAFirstOneThrows()
    {
        var channel = FakeChannel.Holding(5);
        channel.FailGet = 3;
        Assert.Equal([1001L, 1002L], (await RabbitMqQueueStore.TakeAsync(channel.Proxy, "integration", 4, CancellationToken.None)).Select(m => m.Id));

        var failing = FakeChannel.Holding(5);
        failing.FailGet = 1;
        await Assert.ThrowsAsync<IOException>(() => RabbitMqQueueStore.TakeAsync(failing.Proxy, "integration", 4, CancellationToken.None));
    }

    /// <summary>A channel on a queue of <c>{"n":i}</c> messages with ids 1000 + i, delivery tags from 1.</summary>
    public class FakeChannel : DispatchProxy
    {
        private int _next = 1;
        private int _depth;

        public List<string> Calls { get; } = [];

        /// <summary>The get (1-based) that throws an IOException, as a broken connection does.</summary>
        public int FailGet { get; set; }

        public IChannel Proxy { get; private set; } = null!;

        public static FakeChannel Holding(int depth)
        {
            var proxy = Create<IChannel, FakeChannel>();
            var fake = (FakeChannel)(object)proxy;
            fake._depth = depth;
            fake.Proxy = proxy;
            return fake;
        }

        protected override object? Invoke(MethodInfo? method, object?[]? args) => method?.Name switch
        {
            nameof(IChannel.BasicGetAsync) => Get((string)args![0]!, (bool)args[1]!),
            _ => throw new NotSupportedException(method?.Name),
        };

        private Task<BasicGetResult?> Get(string queue, bool autoAck)
        {
            Calls.Add($"get {queue}{(autoAck ? " auto-ack" : "")}");
            if (Calls.Count == FailGet) return Task.FromException<BasicGetResult?>(new IOException("connection reset"));
            if (_next > _depth) return Task.FromResult<BasicGetResult?>(null);
            var n = _next++;
            var properties = new BasicProperties { MessageId = (1000 + n).ToString(CultureInfo.InvariantCulture) };
            return Task.FromResult<BasicGetResult?>(new BasicGetResult((ulong)n, false, "", queue, (uint)(_depth - n), properties,
                Encoding.UTF8.GetBytes($$"""{"n":{{n}}}""")));
        }

    }
}
