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
