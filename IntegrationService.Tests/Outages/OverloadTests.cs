using System.Net;
using System.Text.Json;
using IntegrationService.Storage.Limits;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>
/// Overload shedding, end to end: a backend with as many requests in flight as its limit allows refuses the
/// next ones at once with 503, Retry-After and a ProblemDetails naming the backend, instead of
/// queueing them; architectures on other backends keep serving; once the backend drains, every
/// permit is back. The backend is held full deterministically by stopping it (SIGSTOP) under
/// exactly <see cref="Limit"/> requests, on a service configured with that small limit and no queue
/// (the queue is covered by Unit/BackendLimitTests).
/// </summary>
[Collection("Outages")]
public sealed class OverloadTests(OverloadTests.LimitedService service) : IClassFixture<OverloadTests.LimitedService>
{
    private const int Limit = 8;

    public sealed class LimitedService : ServiceFixture
    {
        // A long Tarantool timeout: the admitted requests must still hold their permits while the
        // refused ones are checked, however slow the machine.
        protected override IEnumerable<string> ExtraArguments =>
            [$"--Storage:MaxConcurrentRequestsPerBackend={Limit}", "--Storage:MaxQueuedRequestsPerBackend=0", "--Tarantool:RequestTimeoutMs=60000"];
    }

    private HttpClient Client => service.Client;

    [Fact]
    public async Task ABackendAtItsLimitShedsTheRestAtOnceAndOtherBackendsKeepServing()
    {
        const string memtx = "/item/1/locations?storage=tarantool-memtx";
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync(memtx)).StatusCode);
        var pids = await ServerProcesses.PidsAsync("tarantool");
        await ServerProcesses.SignalAsync("STOP", pids);
        Task<HttpResponseMessage>[] admitted = [];
        try
        {
            admitted = Enumerable.Range(0, Limit).Select(_ => Client.GetAsync(memtx)).ToArray();
            // All eight wait on the stopped server, holding the backend's permits.
            var limiter = service.Services.GetRequiredService<BackendLimiter>();
            var waited = System.Diagnostics.Stopwatch.StartNew();
            while (limiter.AvailablePermits("tarantool") > 0)
            {
                Assert.True(waited.Elapsed < Recovery.AnswerBound, "the admitted requests never reached the store");
                await Task.Delay(20);
            }

            // Both Tarantool architectures share the server and so its limit; reads and writes alike.
            var shed = Enumerable.Range(0, 20).Select(i => i % 2 == 0
                    ? Client.GetAsync("/Author/Get?id=1&storage=tarantool-vinyl")
                    : Client.PostAsync("/item/2/locations?storage=tarantool-memtx", new StringContent("""{"LocationIds":[1]}""", System.Text.Encoding.UTF8, "application/json")))
                .ToArray();
            var shedAnswers = await Task.WhenAll(shed).WaitAsync(Recovery.AnswerBound);
            Assert.All(admitted, request => Assert.False(request.IsCompleted, "an admitted request was answered before the refused ones"));
            foreach (var answer in shedAnswers)
            {
                Assert.Equal(HttpStatusCode.ServiceUnavailable, answer.StatusCode);
                Assert.Equal("application/problem+json", answer.Content.Headers.ContentType?.MediaType);
                Assert.NotNull(answer.Headers.RetryAfter);
                using var problem = JsonDocument.Parse(await answer.Content.ReadAsStringAsync());
                Assert.Equal("Backend overloaded", problem.RootElement.GetProperty("title").GetString());
                Assert.StartsWith("tarantool:", problem.RootElement.GetProperty("detail").GetString());
            }

            // Other backends are not limited by Tarantool's queue.
            Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/item/1/locations?storage=postgres")).StatusCode);
            Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/item/1/locations?storage=postgres-redis-persistent")).StatusCode);
            Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/Author/GetAll?limit=1&storage=postgres-redis-cache")).StatusCode);
        }
        finally
        {
            await ServerProcesses.SignalAsync("CONT", pids);
        }

        // The admitted ones are answered: served, or 503 if their timeout passed while it was stopped.
        foreach (var answer in await Task.WhenAll(admitted).WaitAsync(Recovery.AnswerBound))
        {
            Assert.Contains(answer.StatusCode, new[] { HttpStatusCode.OK, HttpStatusCode.ServiceUnavailable });
        }
        await Recovery.AssertRecoversAsync(Client, memtx);

        // Every permit came back: exactly the limit, concurrently, is admitted in full.
        var full = await Task.WhenAll(Enumerable.Range(0, Limit).Select(_ => Client.GetAsync(memtx)));
        Assert.All(full, answer => Assert.Equal(HttpStatusCode.OK, answer.StatusCode));
    }
}
