
namespace Wire.Connections.Tests;

public sealed class ReconnectBackoffTests
{
    private static readonly TimeSpan First = TimeSpan.FromMilliseconds(500);
    private static readonly TimeSpan Max = TimeSpan.FromMilliseconds(5000);

    [Fact]
    public void DelaysDoubleWithJitterUpToTheCap()
    {
        var backoff = new ReconnectBackoff(First, Max, new Random(42));

        var delays = Enumerable.Range(0, 12).Select(_ => backoff.Next().TotalMilliseconds).ToArray();

        double[] nominal = [500, 1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000];
        for (var i = 0; i < delays.Length; i++)
        {
            Assert.InRange(delays[i], nominal[i] * 0.8, Math.Min(nominal[i] * 1.2, Max.TotalMilliseconds));
        }
        Assert.True(delays[3] > delays[0] * 4, string.Join(", ", delays));
        Assert.True(delays.Distinct().Count() > 6, "jitter spreads the capped delays: " + string.Join(", ", delays));
    }

    [Fact]
    public void ResetStartsOverFromTheFirstDelay()
    {
        var backoff = new ReconnectBackoff(First, Max, new Random(7));
        for (var i = 0; i < 10; i++) backoff.Next();

        backoff.Reset();

        Assert.InRange(backoff.Next().TotalMilliseconds, 400, 600);
    }

    [Fact]
    public void AHugeNumberOfFailuresStaysAtTheCap()
    {
        var backoff = new ReconnectBackoff(TimeSpan.FromMilliseconds(1), Max, new Random(1));

        for (var i = 0; i < 10_000; i++) Assert.InRange(backoff.Next(), TimeSpan.Zero, Max);
    }
}
