using System.Diagnostics;
using System.Net;

namespace IntegrationService.Tests.Outages;

/// <summary>What the outage tests share: their bounds and the wait for a route to serve again.</summary>
internal static class Recovery
{
    // Generous bounds: these are "never hangs" checks, not performance measurements.
    public static readonly TimeSpan AnswerBound = TimeSpan.FromSeconds(20);
    public static readonly TimeSpan RecoveryBound = TimeSpan.FromSeconds(45);

    /// <summary>Polls <paramref name="url"/> until it answers 200; anything but 503 meanwhile, or no 200 in time, fails.</summary>
    /// <summary>A request to a route whose server is down: a 503 ProblemDetails with Retry-After, within <see cref="AnswerBound"/>.</summary>
    public static async Task AssertUnavailableAsync(HttpClient client, string url)
    {
        var stopwatch = Stopwatch.StartNew();
        var response = await client.GetAsync(url);
        Assert.True(stopwatch.Elapsed < AnswerBound, $"answered after {stopwatch.Elapsed}");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.NotNull(response.Headers.RetryAfter);
    }

    public static async Task AssertRecoversAsync(HttpClient client, string url)
    {
        var stopwatch = Stopwatch.StartNew();
        HttpStatusCode status;
        do
        {
            status = (await client.GetAsync(url)).StatusCode;
            if (status == HttpStatusCode.OK) return;
            Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
            await Task.Delay(250);
        }
        while (stopwatch.Elapsed < RecoveryBound);
        Assert.Fail($"{url} still answers {(int)status} {RecoveryBound.TotalSeconds} s after the server came back");
    }
}
