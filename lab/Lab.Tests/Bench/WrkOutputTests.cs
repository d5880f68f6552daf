using Lab.Bench;

namespace Lab.Tests.Bench;

public sealed class WrkOutputTests
{
    private const string Report = """
        Running 10s test @ http://127.0.0.1:18080
          1 threads and 64 connections
          Thread Stats   Avg      Stdev     Max   +/- Stdev
            Latency     5.12ms    2.01ms  40.00ms   80.00%
            Req/Sec    12.52k     1.10k   14.00k    70.00%
          124815 requests in 10.00s, 30.12MB read
        Requests/sec:  12480.31
        Transfer/sec:      3.01MB
        """;

    [Fact]
    public void RateAndRequestsAreRead() => Assert.Equal((12480.31, 124815L), WrkOutput.Parse(Report));

    [Fact]
    public void AFailedRunHasNoRate() => Assert.Null(WrkOutput.Parse("unable to connect to 127.0.0.1:18080 Connection refused\n"));

    [Theory]
    [InlineData("     99%  180.30ms", 180.30)]
    [InlineData("     99%  812.00us", 0.812)]
    [InlineData("     99%    1.20s", 1200)]
    public void TheLatencyDistributionsP99IsReadInMilliseconds(string line, double ms)
    {
        var output = "  Latency Distribution\n     50%    2.12ms\n     90%   26.20ms\n" + line + "\n";
        Assert.Equal(ms, WrkOutput.P99Ms(output)!.Value, 6);
    }

    [Fact]
    public void WithoutLatencyThereIsNoP99() => Assert.Null(WrkOutput.P99Ms(Report));

    [Theory]
    [InlineData("psql (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)", "15.18")]
    [InlineData("Tarantool 2.6.0-0-g47aa4e01e", "2.6.0-0-g47aa4e01e")]
    [InlineData("Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=1", "7.0.15")]
    [InlineData("beanstalkd 1.12", "1.12")]
    [InlineData("10.0.401", "10.0.401")]
    [InlineData("no version here", null)]
    public void ServerVersionsAreTheFirstVersionNumber(string line, string? version) => Assert.Equal(version, ServerVersions.Of(line));
}
