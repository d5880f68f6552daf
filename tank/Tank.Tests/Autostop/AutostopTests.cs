using Tank.Autostop;
using Tank.Stats;
using Harness.CommandLine;

namespace Tank.Tests.Autostop;

public sealed class AutostopTests
{
    [Fact]
    public void ParsesTanksCriteria()
    {
        var quantile = Assert.IsType<QuantileCriterion>(AutostopParser.Parse("quantile(95,100ms,10s)"));
        Assert.Equal((95, 100, 10), (quantile.Quantile, quantile.LimitMs, quantile.WindowSeconds));
        var time = Assert.IsType<AverageTimeCriterion>(AutostopParser.Parse("time(1s,10)"));
        Assert.Equal((1000, 10), (time.LimitMs, time.WindowSeconds));
        var http = Assert.IsType<CodeCriterion>(AutostopParser.Parse("http(5xx,10%,5s)"));
        Assert.Equal((false, "5xx", 0.1, true, 5), (http.Net, http.Mask, http.Level, http.Relative, http.WindowSeconds));
        var net = Assert.IsType<CodeCriterion>(AutostopParser.Parse("net(1xx,10,10)"));
        Assert.Equal((true, 10.0, false), (net.Net, net.Level, net.Relative));
        Assert.Equal(900, Assert.IsType<LimitCriterion>(AutostopParser.Parse("limit(15m)")).LimitSeconds);
        Assert.Equal("author-read", Assert.IsType<QuantileCriterion>(AutostopParser.Parse("quantile(99,10,3,author-read)")).Tag);
    }

    [Theory]
    [InlineData("quantile(95,100ms,10s)", 21)]
    [InlineData("time(100,10)", 21)]
    [InlineData("limit(1m)", 21)]
    [InlineData("http(5xx,1,1)", 22)]
    [InlineData("net(1xx,1,1)", 23)]
    public void ExitCodesAreTanks(string text, int code) => Assert.Equal(code, AutostopParser.Parse(text).ExitCode);

    [Theory]
    [InlineData("quantile(97,100ms,10s)")]
    [InlineData("quantile(95,0.5s,10s)")]
    [InlineData("http(5xx,10%)")]
    [InlineData("net(1xx,ten,10)")]
    [InlineData("total(1,2)")]
    [InlineData("time(100,0)")]
    [InlineData("quantile 95")]
    public void RejectsBadCriteria(string text) => Assert.Throws<InputException>(() => AutostopParser.Parse(text));

    [Fact]
    public void NetMaskMatchesWholeCodesOnly()
    {
        var twoDigit = Assert.IsType<CodeCriterion>(AutostopParser.Parse("net(xx,1,1)"));
        Assert.False(twoDigit.Matches(110));
        Assert.True(twoDigit.Matches(32));
        Assert.True(Assert.IsType<CodeCriterion>(AutostopParser.Parse("net(1xx,1,1)")).Matches(110));
    }

    [Fact]
    public void FiresAfterTheWindowOfConsecutiveBadSecondsAndResets()
    {
        var criterion = AutostopParser.Parse("http(5xx,50%,2s)");
        static SecondStats Second(int errors, int ok)
        {
            var s = new SecondStats();
            for (var i = 0; i < errors; i++) s.Add(1000, 0, 503, null);
            for (var i = 0; i < ok; i++) s.Add(1000, 0, 200, null);
            return s;
        }
        Assert.False(criterion.Notify(Second(6, 4), 1));
        Assert.False(criterion.Notify(Second(1, 9), 2)); // a good second resets the count
        Assert.False(criterion.Notify(Second(5, 5), 3));
        Assert.True(criterion.Notify(Second(9, 1), 4));
    }

    [Fact]
    public void QuantileComparesMilliseconds()
    {
        var criterion = AutostopParser.Parse("quantile(50,10ms,1)");
        var fast = new SecondStats();
        fast.Add(9_000, 0, 200, null);
        var slow = new SecondStats();
        slow.Add(11_000, 0, 200, null);
        Assert.False(criterion.Notify(fast, 1));
        Assert.True(criterion.Notify(slow, 2));
    }
}
