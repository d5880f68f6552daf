using System.Globalization;
using Lab.Metrics;
using Harness.Charts;

namespace Lab.Report;

/// <summary>The newer report sections (warnings, CPU, cross-check) as words and table cells, shared by the Markdown and HTML writers.</summary>
public static class ReportSections
{
    /// <summary>Every run that must not be trusted as it stands, one sentence each.</summary>
    public static List<string> Warnings(IReadOnlyList<RunAnalysis> runs, IReadOnlyList<CrossCheck> crossChecks) =>
    [
        .. runs.Where(r => r.ColdStart is not null).Select(r => "Cold start: " + r.ColdStart!.Explain(r) + "."),
        .. runs.Where(r => r.QueueRanDry).Select(r => "Queue ran dry: " + QueueDry(r) + "."),
        .. crossChecks.Where(c => !c.Agree).Select(c => $"Cross-check: {c.Storage} {c.Endpoint}: {c.Verdict()}."),
    ];

    /// <summary>Why a dry queue-read run misleads: after the queue emptied, its answers were 204s, not reads.</summary>
    public static string QueueDry(RunAnalysis r)
    {
        var queue = r.Queue!;
        var held = queue.DepthStart is { } start ? $"held {start.ToString(CultureInfo.InvariantCulture)} messages when the run began and " : "";
        return $"{r.Storage} · {r.Scenario}: the queue {(queue.Queue is { Length: > 0 } name && name != r.Storage ? name + " " : "")}{held}none when it ended, " +
               $"so its reads after that point measured empty-queue answers (204 No Content: {r.NoContentAnswers.ToString(CultureInfo.InvariantCulture)} " +
               $"of {r.Requests.ToString(CultureInfo.InvariantCulture)} answers), not taking a message; prefill more messages or read for a shorter time";
    }

    public static string QueueDepthMethod =>
        $"\"{ReportText.QueueDepthColumn}\": messages waiting in the queue when the measured run began and when it ended, and the messages " +
        "the bench put in before it (queue.json beside the run's meta.json; ? = not recorded). A queue-read run that ends at 0 is flagged: " +
        "an empty queue answers 204 No Content at once, so from then on it measured empty-queue answers, not reads.";

    /// <summary>A process below this share of the cores in every run is left out of the CPU table (still counted in "all").</summary>
    public const double IdleProcessPercent = 0.5;

    /// <summary>
    /// Process names in the order the runs first list them (service, servers, tank), without those
    /// that stayed idle in every run: the servers of the other architectures are accounted in every
    /// run, and a column of zeros per idle server would bury the ones that did the work.
    /// </summary>
    public static List<string> CpuProcesses(IReadOnlyList<RunAnalysis> runs) =>
        runs.SelectMany(r => r.Cpu.Select(c => c.Name)).Distinct()
            .Where(name => runs.Any(r => r.Cpu.FirstOrDefault(c => c.Name == name) is { } usage && r.CpuPercentOfCores(usage) >= IdleProcessPercent))
            .ToList();

    public static string[] CpuColumns(IReadOnlyList<RunAnalysis> runs) =>
        ["architecture", "scenario", "achieved rps", .. CpuProcesses(runs).Select(p => $"{p}: µs/req · % of cores"), "all: % of cores", "busiest"];

    /// <summary>
    /// Per run and process: CPU µs per answered request and the share of all cores used while
    /// measured. The busiest process, with the total near 100 %, is what limited the run.
    /// </summary>
    public static List<string[]> CpuRows(IReadOnlyList<RunAnalysis> runs)
    {
        var processes = CpuProcesses(runs);
        return runs.Where(r => r.Cpu.Count > 0).Select(r =>
        {
            var cells = processes.Select(p => r.Cpu.FirstOrDefault(c => c.Name == p) is { } usage
                ? $"{Us(r.CpuUsPerRequest(usage))} · {Pct(r.CpuPercentOfCores(usage))}"
                : "—");
            var busiest = r.Cpu.MaxBy(c => c.Seconds)!;
            return new[] { r.Storage, r.Scenario, ReportText.Rps(r.AchievedRps) }
                .Concat(cells)
                .Append(Pct(r.Cpu.Sum(r.CpuPercentOfCores)))
                .Append($"{busiest.Name} ({Pct(r.CpuPercentOfCores(busiest))})")
                .ToArray();
        }).ToList();
    }

    public static string CpuMethod(IReadOnlyList<RunAnalysis> runs)
    {
        var cores = runs.Select(r => r.Cores).FirstOrDefault(c => c > 0);
        return $"CPU time of each process read from /proc before and after each measured run (user + system; for PostgreSQL the postmaster, " +
               $"the children it reaped and every live backend, so connections that come and go are counted), divided by the answered requests (µs/req) " +
               $"and by the wall time × {(cores > 0 ? cores.ToString(CultureInfo.InvariantCulture) : "all")} cores (%). Service, servers and load generator share the cores: " +
               $"when \"all\" nears 100 % the machine is the limit and the busiest process is the one to make cheaper. " +
               $"A process that used under {IdleProcessPercent.ToString(CultureInfo.InvariantCulture)} % of the cores in every run (the idle servers of the other architectures) has no column; \"all\" still counts it.";
    }

    public static readonly string[] ServerColumns =
    [
        "architecture", "scenario", "client: requests", "client: mean · p50 · p99 ms", "server: requests",
        "server: mean · p50 · p99 ms (estimated from buckets)", "server: non-2xx", "backend timeouts", "proxied to the owner", "routes",
    ];

    /// <summary>Whether any run has the service's own view (the others say why not).</summary>
    public static bool HasServerView(IReadOnlyList<RunAnalysis> runs) => runs.Any(r => r.Server is { Missing: null });

    /// <summary>Per run, the client's figures beside the service's (from its /metrics before and after the run).</summary>
    public static List<string[]> ServerRows(IReadOnlyList<RunAnalysis> runs) =>
        runs.Select(r =>
        {
            var client = new[] { r.Storage, r.Scenario, N(r.Requests), $"{Ms(r.MeanMs)} · {Ms(r.QuantilesMs["p50"])} · {Ms(r.QuantilesMs["p99"])}" };
            if (r.Server is not { Missing: null } server) return (string[])[.. client, "missing: " + (r.Server?.Missing ?? "not read"), "", "", "", "", ""];
            var timeouts = server.BackendTimeouts.Count == 0 ? "0"
                : string.Join(", ", server.BackendTimeouts.OrderBy(t => t.Key, StringComparer.Ordinal).Select(t => $"{t.Key} {N(t.Value)}"));
            return (string[])
            [
                .. client, N(server.Requests), $"{Ms(server.MeanMs)} · {Ms(server.P50Ms)} · {Ms(server.P99Ms)}",
                N(server.Non2xx), timeouts, server.ProxiedShare is { } share ? $"{N(server.ProxiedRequests)} ({(share * 100).ToString("0.0", CultureInfo.InvariantCulture)} %)" : "—",
                string.Join(" ", server.Routes),
            ];
        }).ToList();

    public const string SpectrumMethod =
        "Each line is one architecture's whole measured run (the ramp, which passes the knee on purpose, so its tail shows overload): " +
        "latency from the intended send time at every percentile, x on HdrHistogram's log scale of 1/(1−p) so that 90 %, 99 %, 99.9 % … are " +
        "equally apart; a line ends where the run's request count stops resolving percentiles. The dotted line marks p99, where the SLO is judged. " +
        "The same distribution is in each run's latency.hgrm (HdrHistogram's percentile output, ms), for HdrHistogram's plotter.";

    public static string ServerMethod =>
        "The service's own view: its /metrics scraped right before and right after each run's tank process (so the unrecorded warm-up, " +
        "which runs in the same process, is included on the server side but not on the client side), differenced, over every route " +
        "whose storage label is the run's architecture. Server time runs from the request reaching the service's first middleware to its " +
        "answer, so it leaves out the network, the kernel's queues and Kestrel's parsing; p50 and p99 are estimated from the histogram's " +
        "buckets (0.1 ms to 5 s, 1-2-5 per decade, linear inside a bucket). Backend timeouts: calls of the Tarantool and Redis clients " +
        "that got no answer in time during the window, all architectures. Proxied: key-value requests that node 0 of a sharded cluster " +
        "(a row \"<architecture> ×N\") forwarded to the node owning the key, and their share of its requests; the rest it served from its own store.";

    private static string N(long n) => n.ToString("N0", CultureInfo.InvariantCulture);

    private static string Ms(double? ms) => ms is not { } v ? "—" : v.ToString(v < 10 ? "0.00" : "0.0", CultureInfo.InvariantCulture);

    public static readonly string[] CrossCheckColumns =
        ["architecture", "endpoint", "connections", "seconds", "wrk rps", "tank rps", "difference", "wrk CPU µs/req", "tank CPU µs/req", "verdict"];

    public static List<string[]> CrossCheckRows(IReadOnlyList<CrossCheck> checks) =>
        checks.Select(c => new[]
        {
            c.Storage, c.Endpoint, c.Connections.ToString(CultureInfo.InvariantCulture), Svg.N(c.DurationSeconds),
            ReportText.Rps(c.WrkRps), ReportText.Rps(c.TankRps), c.DifferencePercent.ToString("+0.0;-0.0;0", CultureInfo.InvariantCulture) + " %",
            Us(c.WrkCpuUsPerRequest), Us(c.TankCpuUsPerRequest), c.Verdict(),
        }).ToList();

    public static string CrossCheckMethod(IReadOnlyList<CrossCheck> checks) =>
        $"Each endpoint was loaded by wrk (`{checks.Select(c => c.WrkCommand).FirstOrDefault(c => c is not null) ?? "wrk"}`, a Lua script spreading ids over existing rows) " +
        $"and then by this runner in the closed model with the same connection count and duration and the same ids, right after one another on a warmed service. " +
        $"wrk rps is its own Requests/sec; tank rps is the median of its whole seconds (instances start during the first). They must agree within ±{CrossCheck.TolerancePercent:0} %.";

    public static readonly string[] RateCheckColumns =
        ["architecture", "scenario", "capacity (tank)", "wrk rps at that rate", "difference", "wrk p99 ms", "seconds", "verdict"];

    public static List<string[]> RateCheckRows(IReadOnlyList<CrossCheck> checks) =>
        checks.Where(c => c.Rate is not null).Select(c => c.Rate!).Select(r => new[]
        {
            r.Storage, r.Scenario, ReportText.Rps(r.ConfirmedRps), ReportText.Rps(r.WrkRps), r.DifferencePercent.ToString("+0.0;-0.0;0", CultureInfo.InvariantCulture) + " %",
            Ms(r.WrkP99Ms), r.Seconds.ToString(CultureInfo.InvariantCulture), r.Verdict(),
        }).ToList();

    public static string RateCheckMethod(IReadOnlyList<CrossCheck> checks) =>
        $"Each cross-checked cell's confirmed rate was sent again by wrk, paced at that rate (`{checks.Select(c => c.Rate?.Command).FirstOrDefault(c => c is not null) ?? "wrk"}`), " +
        $"for as long as a confirmation, after the closed-model cross-check. They agree when wrk kept the rate within ±{RateCheck.TolerancePercent:0} % and its p99 " +
        "(from the actual send, wrk's own measure) stayed within the SLO: a second generator that also holds the rate the search confirmed.";

    private static string Us(double us) => us.ToString(us < 10 ? "0.0" : "0", CultureInfo.InvariantCulture);

    private static string Pct(double pct) => pct.ToString("0", CultureInfo.InvariantCulture) + " %";
}
