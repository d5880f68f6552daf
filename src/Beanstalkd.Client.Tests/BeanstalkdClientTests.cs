using System.Collections.Concurrent;
using System.Text;

namespace Beanstalkd.Client.Tests;

/// <summary>The beanstalkd client against the tests' real beanstalkd, each test in a tube of its own.</summary>
public sealed class BeanstalkdClientTests : IAsyncLifetime
{
    private BeanstalkdClient _client = null!;

    public Task InitializeAsync()
    {
        _client = BeanstalkdTestServer.Client();
        return Task.CompletedTask;
    }

    public async Task DisposeAsync() => await _client.DisposeAsync();

    [Fact]
    public async Task APutJobIsReservedWithEveryByteOfItsBodyAndDeleted()
    {
        // Every byte value, and what looks like protocol inside the body.
        var body = Enumerable.Range(0, 256).Select(b => (byte)b)
            .Concat("\r\nRESERVED 1 2\r\nxx\r\n\r\n"u8.ToArray()).Concat(new byte[] { 13 }).ToArray();

        var id = await _client.PutAsync(body);
        var job = await _client.ReserveAsync();

        Assert.NotNull(job);
        Assert.Equal(id, job.Id);
        Assert.Equal(body, job.Body.ToArray());
        await _client.DeleteAsync(job.Id);
        Assert.Null(await _client.ReserveAsync());
        Assert.Equal(0, await _client.ReadyCountAsync());
    }

    [Fact]
    public async Task AnEmptyBodyRoundTrips()
    {
        var id = await _client.PutAsync(ReadOnlyMemory<byte>.Empty);

        var job = await _client.ReserveAsync();

        Assert.Equal(id, job?.Id);
        Assert.Equal(0, job!.Body.Length);
        await _client.DeleteAsync(job.Id);
    }

    [Fact]
    public async Task JobsComeOutInTheOrderTheyWentIn()
    {
        var ids = new List<ulong>();
        for (var i = 0; i < 100; i++) ids.Add(await _client.PutAsync(Encoding.ASCII.GetBytes($"job {i}")));

        var bodies = new List<string>();
        while (await _client.ReserveAsync() is { } job)
        {
            bodies.Add(Encoding.ASCII.GetString(job.Body.Span));
            await _client.DeleteAsync(job.Id);
        }

        Assert.Equal(Enumerable.Range(0, 100).Select(i => $"job {i}"), bodies);
        Assert.Equal(ids.Order(), ids);
    }

    [Fact]
    public async Task AnEmptyTubeReservesNothing()
    {
        Assert.Null(await _client.ReserveAsync());
        Assert.Null(await _client.ReserveAsync());
    }

    [Fact]
    public async Task ReadyCountCountsTheReadyJobsOnly()
    {
        Assert.Equal(0, await _client.ReadyCountAsync());
        for (var i = 0; i < 3; i++) await _client.PutAsync("x"u8.ToArray());
        Assert.Equal(3, await _client.ReadyCountAsync());

        var job = await _client.ReserveAsync();
        Assert.Equal(2, await _client.ReadyCountAsync()); // reserved is not ready

        await _client.DeleteAsync(job!.Id);
        Assert.Equal(2, await _client.ReadyCountAsync());
    }

    [Fact]
    public async Task TubesAreKeptApart()
    {
        await using var other = BeanstalkdTestServer.Client();

        await _client.PutAsync("mine"u8.ToArray());

        Assert.Null(await other.ReserveAsync());
        Assert.Equal(0, await other.ReadyCountAsync());
        Assert.Equal(1, await _client.ReadyCountAsync());
    }

    [Fact]
    public async Task PingIsAnswered()
    {
        await _client.PingAsync();
        await _client.PingAsync();
    }

    [Fact]
    public async Task DeletingAJobThatIsNotThereIsNotFoundAndTheConnectionKeepsWorking()
    {
        var id = await _client.PutAsync("x"u8.ToArray());
        await _client.DeleteAsync(id);

        var error = await Assert.ThrowsAsync<BeanstalkdProtocolException>(() => _client.DeleteAsync(id).AsTask());

        Assert.Equal("NOT_FOUND", error.Reply);
        Assert.Equal(_client.Endpoint, error.Endpoint);
        await _client.PingAsync();
    }

    [Fact]
    public async Task AJobOverTheServersSizeLimitIsRefusedAndTheConnectionKeepsWorking()
    {
        // beanstalkd's default limit (-z) is 65 535 bytes.
        var tooBig = new byte[70_000];
        Random.Shared.NextBytes(tooBig);

        var error = await Assert.ThrowsAsync<BeanstalkdProtocolException>(() => _client.PutAsync(tooBig).AsTask());

        Assert.Equal("JOB_TOO_BIG", error.Reply);
        var id = await _client.PutAsync("after"u8.ToArray());
        var job = await _client.ReserveAsync();
        Assert.Equal(id, job?.Id);
        Assert.Equal("after"u8.ToArray(), job!.Body.ToArray());
        await _client.DeleteAsync(id);
    }

    [Fact]
    public async Task ALargeJobWithinTheLimitRoundTrips()
    {
        var body = new byte[65_535];
        Random.Shared.NextBytes(body);

        await _client.PutAsync(body);
        var job = await _client.ReserveAsync();

        Assert.Equal(body, job!.Body.ToArray());
        await _client.DeleteAsync(job.Id);
    }

    [Fact]
    public async Task ManyConcurrentPutsAndReservesTakeEveryJobExactlyOnce()
    {
        const int producers = 8, perProducer = 500, total = producers * perProducer;
        var taken = new ConcurrentBag<(ulong Id, string Body)>();
        var takenCount = 0;
        using var giveUp = new CancellationTokenSource(TimeSpan.FromSeconds(120));

        var puts = Enumerable.Range(0, producers).Select(p => Task.Run(async () =>
        {
            for (var i = 0; i < perProducer; i++) await _client.PutAsync(Encoding.ASCII.GetBytes($"{p}/{i}"));
        }));
        var reserves = Enumerable.Range(0, 8).Select(_ => Task.Run(async () =>
        {
            while (Volatile.Read(ref takenCount) < total)
            {
                giveUp.Token.ThrowIfCancellationRequested();
                if (await _client.ReserveAsync() is not { } job)
                {
                    await Task.Delay(1);
                    continue;
                }
                await _client.DeleteAsync(job.Id);
                taken.Add((job.Id, Encoding.ASCII.GetString(job.Body.Span)));
                Interlocked.Increment(ref takenCount);
            }
        }));
        await Task.WhenAll(puts.Concat(reserves));

        var expected = from p in Enumerable.Range(0, producers) from i in Enumerable.Range(0, perProducer) select $"{p}/{i}";
        Assert.Equal(expected.Order(), taken.Select(t => t.Body).Order());
        Assert.Equal(total, taken.Select(t => t.Id).Distinct().Count());
        Assert.Null(await _client.ReserveAsync());
        Assert.Equal(0, await _client.ReadyCountAsync());
    }

    [Fact]
    public async Task AReservationBelongsToItsConnectionAndIsReadyAgainWhenThatCloses()
    {
        var tube = BeanstalkdTestServer.NewTube();
        await using var other = BeanstalkdTestServer.Client(tube);
        await using var reserver = BeanstalkdTestServer.Client(tube);
        var id = await other.PutAsync("once"u8.ToArray());

        var job = await reserver.ReserveAsync();
        Assert.Equal(id, job?.Id);

        // Another connection may not delete it while it is reserved…
        var error = await Assert.ThrowsAsync<BeanstalkdProtocolException>(() => other.DeleteAsync(id).AsTask());
        Assert.Equal("NOT_FOUND", error.Reply);

        // …and when the reserving connection goes away, the job is ready again (at least once).
        await reserver.DisposeAsync();
        BeanstalkdJob? again = null;
        for (var attempt = 0; attempt < 200 && again is null; attempt++)
        {
            again = await other.ReserveAsync();
            if (again is null) await Task.Delay(10);
        }
        Assert.Equal(id, again?.Id);
        await other.DeleteAsync(id);
    }

    [Fact]
    public async Task ACallCancelledBeforeItStartsSendsNothing()
    {
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _client.PutAsync("x"u8.ToArray(), cancelled.Token).AsTask());

        Assert.Equal(0, await _client.ReadyCountAsync());
    }

    [Fact]
    public async Task TheDefaultTubeNeedsNoSetUp()
    {
        // Only asks the server: the default tube is shared, so nothing is put into it.
        await using var client = BeanstalkdTestServer.Client("default");

        await client.PingAsync();
        Assert.True(await client.ReadyCountAsync() >= 0);
    }
}
