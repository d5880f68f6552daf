using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Queues;

/// <summary>
/// Writers and readers at the same time on one queue: every message written is read exactly once
/// (none lost, none delivered twice), on every queue architecture.
/// </summary>
public sealed class QueueExactlyOnceTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private const int Writers = 8;
    private const int MessagesPerWriter = 500;
    private const int Readers = 8;

    // A bound against a hang, not a performance figure.
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(3);

    [Theory]
    [InlineData("beanstalkd")]
    [InlineData("redis-aof")]
    [InlineData("redis-rdb")]
    [InlineData("postgres")]
    [InlineData("tarantool-memtx")]
    [InlineData("tarantool-vinyl")]
    [InlineData("rabbitmq")]
    [InlineData("nats-jetstream")]
    [InlineData("redis-sentinel")]
    [InlineData("nats-r3")]
    [InlineData("rabbitmq-r3")]
    public async Task EightWritersAndEightReadersEachMessageReadExactlyOnce(string queue)
    {
        var client = service.Client;
        while ((await client.GetAsync($"/read/{queue}")).StatusCode == HttpStatusCode.OK) { }

        var run = Guid.NewGuid().ToString("N");
        var read = new ConcurrentBag<string>();
        var foreign = 0;
        var writing = Writers;
        var stopwatch = Stopwatch.StartNew();

        var writers = Enumerable.Range(0, Writers).Select(w => Task.Run(async () =>
        {
            for (var i = 0; i < MessagesPerWriter; i++)
            {
                var body = new StringContent($$"""{"run":"{{run}}","key":"{{w}}-{{i}}"}""", Encoding.UTF8, "application/json");
                var response = await client.PostAsync($"/write/{queue}", body);
                Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            }
            Interlocked.Decrement(ref writing);
        })).ToArray();

        var readers = Enumerable.Range(0, Readers).Select(_ => Task.Run(async () =>
        {
            while (stopwatch.Elapsed < Deadline)
            {
                var done = Volatile.Read(ref writing) == 0;
                var response = await client.GetAsync($"/read/{queue}");
                if (response.StatusCode == HttpStatusCode.NoContent)
                {
                    if (done) return; // every writer finished before this empty answer: nothing left
                    await Task.Delay(2);
                    continue;
                }
                Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                var message = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("read_message");
                if (message.TryGetProperty("run", out var r) && r.GetString() == run) read.Add(message.GetProperty("key").GetString()!);
                else Interlocked.Increment(ref foreign);
            }
        })).ToArray();

        await Task.WhenAll(writers);
        await Task.WhenAll(readers);

        var keys = read.ToArray();
        var duplicates = keys.GroupBy(k => k).Where(g => g.Count() > 1).Select(g => g.Key).ToArray();
        Assert.True(duplicates.Length == 0, $"delivered twice: {string.Join(", ", duplicates.Take(10))}");
        var expected = Enumerable.Range(0, Writers).SelectMany(w => Enumerable.Range(0, MessagesPerWriter).Select(i => $"{w}-{i}")).ToHashSet();
        var missing = expected.Except(keys).ToArray();
        Assert.True(missing.Length == 0, $"{missing.Length} messages never read, e.g. {string.Join(", ", missing.Take(10))}");
        Assert.Equal(Writers * MessagesPerWriter, keys.Length);
        Assert.Equal(0, foreign);
    }
}
