using IntegrationService.Storage;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using Prometheus;

namespace IntegrationService.Monitoring;

/// <summary>
/// What <c>/metrics</c> shows, in a registry of this host's own (tests run several hosts in one
/// process): request durations by route, storage and status; the backend clients' calls in flight and
/// timeouts, read at scrape time; the .NET meters listed in <see cref="Meters"/>; process statistics.
/// </summary>
public sealed class ServiceMetrics : IDisposable
{
    public const string Path = "/metrics";

    /// <summary>
    /// The System.Diagnostics.Metrics meters exported: Npgsql's pool and command instruments and the
    /// runtime's. Not ASP.NET Core's own: its per-request instruments would add work to every request,
    /// and the request histogram here already covers them.
    /// </summary>
    public static readonly string[] Meters = ["Npgsql", "System.Runtime"];

    /// <summary>0.1 ms to 5 s, 1-2-5 in each decade.</summary>
    internal static readonly double[] DurationBuckets =
        [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];

    private readonly IDisposable _meterAdapter;

    public ServiceMetrics(IEnumerable<BackendActivitySource> backends)
    {
        Registry = Metrics.NewCustomRegistry();
        var factory = Metrics.WithCustomRegistry(Registry);
        RequestDuration = factory.CreateHistogram("integration_http_request_duration_seconds",
            "Time from the request reaching the service to its answer, by route pattern, storage architecture and status code.",
            ["route", "storage", "status"], new HistogramConfiguration { Buckets = DurationBuckets });
        var inFlight = factory.CreateGauge("integration_backend_in_flight",
            "Calls a backend client has sent or queued and not yet had answered.", ["backend"]);
        var timeouts = factory.CreateCounter("integration_backend_timeouts_total",
            "Calls a backend client failed because no answer came in time.", ["backend"]);
        KvProxied = factory.CreateCounter("integration_kv_proxied_requests_total",
            "Key-value requests this node forwarded to the key's owner in a sharded cluster, by owner and outcome (relayed; unavailable: no answer in time; shed: Cluster:MaxInFlightPerNode reached, not sent).",
            ["owner", "outcome"]);
        var sources = backends.ToArray();
        var children = sources.Select(s => (s, inFlight.WithLabels(s.Backend), timeouts.WithLabels(s.Backend))).ToArray();
        Registry.AddBeforeCollectCallback(() =>
        {
            foreach (var (source, inFlightChild, timeoutsChild) in children)
            {
                inFlightChild.Set(source.InFlight());
                timeoutsChild.IncTo(source.Activity.Timeouts);
            }
        });
        DotNetStats.Register(Registry);
        _meterAdapter = MeterAdapter.StartListening(new MeterAdapterOptions
        {
            Registry = Registry,
            MetricFactory = factory, // else the adapter's metrics land in the default registry, which /metrics does not show
            InstrumentFilterPredicate = instrument => Array.IndexOf(Meters, instrument.Meter.Name) >= 0,
        });
    }

    public CollectorRegistry Registry { get; }

    public Histogram RequestDuration { get; }

    /// <summary>Key-value requests forwarded to their owner node (Kv/Cluster/KvCluster.cs).</summary>
    public Counter KvProxied { get; }

    public void Dispose() => _meterAdapter.Dispose();
}
