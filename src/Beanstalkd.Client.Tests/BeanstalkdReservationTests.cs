using System.Diagnostics;

namespace Beanstalkd.Client.Tests;

/// <summary>
/// The commands on a reservation (delete, release, touch) go on the connection that reserved the job
/// or nowhere, against a fake server (no beanstalkd): once that connection closed, beanstalkd has put
/// the job back to ready, and a command on the next connection could take someone else's reservation.
/// </summary>
public sealed class BeanstalkdReservationTests
{
    private static string? Answer(string line, ref int pings) =>
        line.StartsWith("reserve", StringComparison.Ordinal) ? "RESERVED 5 1\r\nx\r\n"
        : line.StartsWith("touch", StringComparison.Ordinal) ? "TOUCHED\r\n"
        // The first ping's reply names another tube: a reply that fits no command drops the connection.
        : line.StartsWith("list-tube-used", StringComparison.Ordinal) ? (Interlocked.Increment(ref pings) == 1 ? "USING elsewhere\r\n" : "USING default\r\n")
        : "NOT_FOUND\r\n";

    [Fact]
    public async Task AReservationWhoseConnectionClosedIsNeitherTouchedReleasedNorDeletedOnTheNextConnection()
    {
        var pings = 0;
        await using var server = new FakeBeanstalkd(line => Answer(line, ref pings));
        await using var client = new BeanstalkdClient(BeanstalkdTestServer.Options("default", server.Port));

        var job = await client.ReserveAsync();
        Assert.NotNull(job);
        Assert.True(await client.TouchAsync(job));
        await Assert.ThrowsAsync<BeanstalkdProtocolException>(() => client.PingAsync().AsTask());
        await WaitUntilAsync(() => !client.IsConnected);

        Assert.False(await client.TouchAsync(job));
        Assert.False(await client.ReleaseAsync(job));
        Assert.False(await client.DeleteReservedAsync(job));
        await client.PingAsync(); // connects again; the reservation's commands did not
        Assert.Equal(2, server.Connections);
        Assert.Equal("reserve-with-timeout 0\r\ntouch 5\r\nlist-tube-used\r\nlist-tube-used\r\n", server.Received);
    }

    [Fact]
    public async Task AReservationTheServerNoLongerKnowsIsOverAndTheConnectionStays()
    {
        await using var server = new FakeBeanstalkd(line => line.StartsWith("reserve", StringComparison.Ordinal) ? "RESERVED 5 1\r\nx\r\n" : "NOT_FOUND\r\n");
        await using var client = new BeanstalkdClient(BeanstalkdTestServer.Options("default", server.Port));

        var job = await client.ReserveAsync();
        Assert.NotNull(job);

        Assert.False(await client.TouchAsync(job));
        Assert.False(await client.ReleaseAsync(job));
        Assert.False(await client.DeleteReservedAsync(job));
        Assert.True(client.IsConnected);
        Assert.Equal("reserve-with-timeout 0\r\ntouch 5\r\nrelease 5 1024 0\r\ndelete 5\r\n", server.Received);
    }

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        var waited = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(waited.Elapsed < TimeSpan.FromSeconds(10), "the condition never came true");
            await Task.Delay(10);
        }
    }
}
