using Lab.Metrics;

namespace Lab.Tests.Metrics;

public sealed class PrometheusTextTests
{
    [Fact]
    public void ReadsTheWantedSeriesWithTheirLabels()
    {
        var samples = PrometheusText.Parse(Samples.After, name => name.StartsWith("integration_", StringComparison.Ordinal));
        var bucket = samples.Single(s => s.Name == "integration_http_request_duration_seconds_bucket"
                                         && s.Label("storage") == "postgres" && s.Label("status") == "200" && s.Label("le") == "0.001");
        Assert.Equal("/Author/Get", bucket.Label("route"));
        Assert.Equal(1800, bucket.Value);
        Assert.Equal(4, samples.Count(s => s.Name == "integration_backend_timeouts_total" || s.Name == "integration_backend_in_flight"));
        Assert.DoesNotContain(samples, s => s.Name.StartsWith("npgsql", StringComparison.Ordinal));
    }

    [Fact]
    public void ReadsSeriesWithoutLabelsEscapesAndTimestamps()
    {
        var samples = PrometheusText.Parse("""
            # TYPE process_cpu_seconds_total counter
            process_cpu_seconds_total 12.34

            odd{path="a\"b\\c",empty=""} +Inf 1700000000000
            """, _ => true);
        Assert.Equal(12.34, samples[0].Value);
        Assert.Empty(samples[0].Labels);
        Assert.Equal("a\"b\\c", samples[1].Label("path"));
        Assert.Equal("", samples[1].Labels["empty"]);
        Assert.Equal(double.PositiveInfinity, samples[1].Value);
    }

    [Theory]
    [InlineData("name{le=\"1\" 5")]
    [InlineData("name{le=1} 5")]
    [InlineData("name 5x")]
    [InlineData("name")]
    public void RefusesBrokenLines(string line) =>
        Assert.Throws<FormatException>(() => PrometheusText.Parse(line, _ => true));
}
