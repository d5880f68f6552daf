using System.Net;
using System.Text;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>
/// A write through the cache architecture that times out while PostgreSQL hangs (SIGSTOP) is in
/// doubt: PostgreSQL may still commit it when it resumes. Whether it does or not, once PostgreSQL
/// answers again the cache must serve what PostgreSQL holds — not the value it had cached before
/// the write (the crash test found such late commits: `ok_from_in_doubt`).
/// </summary>
[Collection("Outages")]
public sealed class InDoubtWriteCacheTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private HttpClient Client => service.Client;

    [Fact]
    public async Task AWriteThatTimesOutAndLandsLaterIsNotHiddenByAnOlderCachedValue()
    {
        var itemId = Ids.NewItemId();
        var cached = $"/item/{itemId}/locations?storage=postgres-redis-cache";
        var direct = $"/item/{itemId}/locations?storage=postgres";
        Assert.Equal(HttpStatusCode.OK, (await Client.PostAsync(cached, Body("[1]"))).StatusCode);
        var before = await Client.GetStringAsync(cached); // a miss: fills the cache
        Assert.Equal(before, await Client.GetStringAsync(cached)); // a hit

        var pids = await ServerProcesses.PidsAsync("postgres");
        await ServerProcesses.SignalAsync("STOP", pids);
        HttpStatusCode status;
        try
        {
            status = (await Client.PostAsync(cached, Body("[2,3]")).WaitAsync(Recovery.AnswerBound)).StatusCode;
        }
        finally
        {
            await ServerProcesses.SignalAsync("CONT", pids);
        }
        Assert.Equal(HttpStatusCode.ServiceUnavailable, status);

        await Recovery.AssertRecoversAsync(Client, direct);
        await Task.Delay(500); // a commit that was waiting lands now, if it does
        var truth = await Client.GetStringAsync(direct);
        Assert.Equal(truth, await Client.GetStringAsync(cached));
        Assert.Equal(truth, await Client.GetStringAsync(cached));
    }

    private static StringContent Body(string ids) => new($$"""{"LocationIds":{{ids}}}""", Encoding.UTF8, "application/json");
}
