namespace Lab.Tests.Metrics;

/// <summary>
/// metrics-before.txt and metrics-after.txt: the service's /metrics before and after a run, in
/// prometheus-net's text format. Between them, postgres /Author/Get answered 2000 more 200s (their
/// buckets below) and 5 404s (all under 0.2 ms); tarantool-memtx and /health/ready moved too; the
/// Tarantool client counted 4 more timeouts.
/// </summary>
internal static class Samples
{
    public static string Before => Read("metrics-before.txt");

    public static string After => Read("metrics-after.txt");

    public static string PathOf(string name) => Path.Combine(AppContext.BaseDirectory, "Metrics", "Samples", name);

    private static string Read(string name) => File.ReadAllText(PathOf(name));
}
