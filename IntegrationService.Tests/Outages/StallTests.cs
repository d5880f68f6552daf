using System.Net;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>
/// A hung backend (its processes stopped with SIGSTOP: connections stay open, nothing answers)
/// must not take the service with it. With a hundred requests to the hung backend in flight,
/// requests to every other architecture are answered while those hundred still wait; the hundred
/// then answer 503 with Retry-After within their timeout; after SIGCONT the backend serves again
/// by itself.
/// </summary>
[Collection("Outages")]
public sealed class StallTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private static readonly string[] OtherArchitectures =
    [
        "/item/1/locations?storage=postgres",
        "/Author/GetAll?limit=1&storage=postgres-redis-cache",
        "/item/1/locations?storage=postgres-redis-persistent",
        "/item/1/locations?storage=tarantool-memtx",
        "/Author/GetAll?limit=1&storage=tarantool-vinyl",
    ];

    private HttpClient Client => service.Client;

    public static TheoryData<string, string> Stalls => new()
    {
        { "tarantool", "/item/1/locations?storage=tarantool-memtx" },
        { "redis-persistent", "/item/1/locations?storage=postgres-redis-persistent" },
        { "postgres", "/item/1/locations?storage=postgres" },
    };

    [Theory, MemberData(nameof(Stalls))]
    public async Task AHungBackendAnswers503WhileEveryOtherArchitectureKeepsServing(string server, string url)
    {
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync(url)).StatusCode);
        var others = OtherArchitectures.Where(other => !Uses(other, server)).ToList();
        var pids = await ServerProcesses.PidsAsync(server);
        await ServerProcesses.SignalAsync("STOP", pids);
        try
        {
            var hung = Enumerable.Range(0, 100).Select(_ => Client.GetAsync(url)).ToArray();
            await Task.Delay(200); // the hundred are in flight, waiting on the stopped server

            foreach (var other in others)
            {
                Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync(other)).StatusCode);
            }
            Assert.Contains(hung, request => !request.IsCompleted);

            var answers = await Task.WhenAll(hung).WaitAsync(Recovery.AnswerBound);
            Assert.All(answers, answer =>
            {
                Assert.Equal(HttpStatusCode.ServiceUnavailable, answer.StatusCode);
                Assert.Equal("application/problem+json", answer.Content.Headers.ContentType?.MediaType);
                Assert.NotNull(answer.Headers.RetryAfter);
            });
        }
        finally
        {
            await ServerProcesses.SignalAsync("CONT", pids);
        }
        await Recovery.AssertRecoversAsync(Client, url);
        foreach (var other in others) Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync(other)).StatusCode);
    }

    private static bool Uses(string url, string server) => server switch
    {
        "postgres" => url.Contains("storage=postgres"),
        "redis-persistent" => url.Contains("storage=postgres-redis-persistent"),
        _ => url.Contains($"storage={server}"),
    };
}
