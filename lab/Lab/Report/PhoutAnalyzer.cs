using System.Buffers.Text;
using Tank.Schedule;
using Tank.Stats;
using Harness.CommandLine;
using Tank.Ammo;
using Tank.Runner;

namespace Lab.Report;

/// <summary>
/// Reads a phout.log (streaming, byte-level: runs have millions of lines) and computes the
/// report's numbers. Seconds are bucketed by when the response completed, as Tank does. With
/// lateness.log beside it (tank run writes one), every latency counts from the request's intended
/// send time — its send lateness plus interval_real — so a runner that fell behind its schedule
/// cannot hide the queue it met (coordinated omission); interval_real alone is kept as the
/// actual-send quantiles.
/// </summary>
public static class PhoutAnalyzer
{
    public static readonly (string Name, double Percentile)[] Quantiles =
        [("p50", 50), ("p75", 75), ("p90", 90), ("p95", 95), ("p99", 99), ("p99.9", 99.9)];

    public const double MaxErrorRate = 0.001;
    public const int SustainWindowSeconds = 3;

    /// <param name="windowSeconds">Above 0: also p99 per window of that many seconds from the start (<see cref="RunAnalysis.WindowP99Ms"/>), the planned seconds only.</param>
    public static RunAnalysis Analyze(string phoutPath, string storage, string scenario, RunMeta? meta, double sloMs, int windowSeconds = 0)
    {
        // One histogram serves the table's quantiles, mean and max and the run's latency.hgrm (Spectrum).
        var overall = new LatencyHistogram();
        var actual = new LatencyHistogram();
        var latenessPath = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(phoutPath))!, Tank.Runner.PhoutFormat.LatenessFile);
        using var lateness = File.Exists(latenessPath) ? new StreamReader(latenessPath) : null;
        long late = 0;
        var lateUs = (long)(sloMs * 1000);
        var operations = new OperationSplit();
        var perSecond = new SortedDictionary<long, (LatencyHistogram Latency, long Errors)>();
        var http = new SortedDictionary<int, long>();
        var net = new SortedDictionary<int, long>();
        long errors = 0, firstStartMs = long.MaxValue, lastEndUs = 0, lineNo = 0;
        foreach (var line in ReadLines(phoutPath))
        {
            lineNo++;
            var fields = new PhoutFields(line, phoutPath, lineNo);
            var startMs = fields.SendTimeMs;
            var actualUs = fields.Long(2);
            var latenessUs = NextLateness(lateness, latenessPath, lineNo);
            if (latenessUs > lateUs) late++;
            var intervalUs = actualUs + latenessUs;
            var netCode = (int)fields.Long(10);
            var httpCode = (int)fields.Long(11);
            var endUs = startMs * 1000 + actualUs;
            firstStartMs = Math.Min(firstStartMs, startMs);
            lastEndUs = Math.Max(lastEndUs, endUs);
            overall.Record(intervalUs);
            actual.Record(actualUs);
            var error = SecondStats.IsError(netCode, httpCode);
            if (error) errors++;
            operations.Record(line.AsSpan()[fields.Tag], intervalUs, error);
            var second = endUs / 1_000_000;
            if (!perSecond.TryGetValue(second, out var bucket)) bucket = (new LatencyHistogram(), 0);
            bucket.Latency.Record(intervalUs);
            perSecond[second] = (bucket.Latency, bucket.Errors + (error ? 1 : 0));
            http[httpCode] = http.GetValueOrDefault(httpCode) + 1;
            net[netCode] = net.GetValueOrDefault(netCode) + 1;
        }
        if (overall.Count == 0) throw new InputException(phoutPath, "line 1", "phout.log is empty: the run produced no results");

        var startSecond = (meta?.Start?.ToUnixTimeMilliseconds() ?? firstStartMs) / 1000;
        var planned = PlannedPerSecond(meta);
        var seconds = perSecond.Select(s =>
        {
            var offset = s.Key - startSecond;
            var plan = offset >= 0 && offset < planned.Length ? planned[offset] : 0;
            return new SecondPoint(offset, s.Value.Latency.Count, plan, Ms(s.Value.Latency.Percentile(50)), Ms(s.Value.Latency.Percentile(90)),
                Ms(s.Value.Latency.Percentile(99)), Ms(s.Value.Latency.Max), s.Value.Errors);
        }).ToList();
        var firstWindow = new LatencyHistogram();
        foreach (var (second, bucket) in perSecond)
            if (second - startSecond < ColdStartCheck.WindowSeconds) firstWindow.Add(bucket.Latency);
        var duration = Math.Max(0.001, (lastEndUs - firstStartMs * 1000) / 1e6);
        var windows = new List<double>();
        if (windowSeconds > 0)
        {
            // From the first send, not meta.json's start (a warm-up before it moves that by a second):
            // whole windows of the planned seconds, so the last is never a stray second of the drain.
            var first = firstStartMs / 1000;
            var span = (planned.Length > 0 ? planned.Length : (long)Math.Ceiling(duration)) / windowSeconds * windowSeconds;
            foreach (var window in perSecond.Where(s => s.Key - first >= 0 && s.Key - first < span).GroupBy(s => (s.Key - first) / windowSeconds).OrderBy(g => g.Key))
            {
                var merged = new LatencyHistogram();
                foreach (var second in window) merged.Add(second.Value.Latency);
                windows.Add(Ms(merged.Percentile(99)));
            }
        }
        return new RunAnalysis
        {
            WindowP99Ms = windows,
            StartedAt = DateTimeOffset.FromUnixTimeSeconds(startSecond),
            Storage = storage,
            Scenario = scenario,
            Schedule = meta?.Schedule,
            Durability = meta?.Durability,
            Requests = overall.Count,
            DurationSeconds = duration,
            AchievedRps = overall.Count / duration,
            MeanMs = overall.Mean / 1000,
            QuantilesMs = Quantiles.ToDictionary(q => q.Name, q => Ms(overall.Percentile(q.Percentile))),
            ActualQuantilesMs = Quantiles.ToDictionary(q => q.Name, q => Ms(actual.Percentile(q.Percentile))),
            FromIntendedSend = lateness is not null,
            LateShots = lateness is null ? null : late,
            DroppedShots = meta is { PlannedRequests: > 0 } m ? Math.Max(0, m.PlannedRequests - m.SentRequests) : null,
            MaxMs = Ms(overall.Max),
            Errors = errors,
            ErrorRate = (double)errors / overall.Count,
            HttpCodes = http,
            NetCodes = net,
            MaxSustainedRps = MaxSustained(seconds, sloMs),
            Seconds = seconds,
            PeakPlannedRps = planned.Length == 0 ? 0 : planned.Max(),
            SendLatenessP99Us = meta?.LatenessP99Us ?? 0,
            ExitCode = meta?.ExitCode ?? 0,
            Autostop = meta?.Autostop,
            LoadType = meta?.LoadType ?? "rps",
            WarmupSchedule = meta?.WarmupSchedule,
            Cpu = meta?.Cpu ?? [],
            CpuWallSeconds = meta?.CpuWallSeconds ?? 0,
            Cores = meta?.Cores ?? 0,
            ColdStart = ColdStartCheck.Check(seconds, Ms(firstWindow.Percentile(99)), planned.Length),
            Spectrum = overall,
            Operations = operations.Results(),
        };
    }

    /// <summary>
    /// The best rate the system held while meeting the SLO: over every run of
    /// <see cref="SustainWindowSeconds"/> consecutive seconds in which all seconds but at most one
    /// have p99 ≤ SLO and errors below 0.1 %, the lowest rate among those good seconds; the highest
    /// such value. One lucky second does not count, and one stray bad second (a hiccup of a shared
    /// host, a checkpoint) does not void the seconds around it; two bad seconds in three do, as
    /// Tank's autostop <c>quantile(99, SLO, 3s)</c> would stop a run that stays over.
    /// </summary>
    public static double MaxSustained(IReadOnlyList<SecondPoint> seconds, double sloMs)
    {
        double best = 0;
        for (var i = 0; i + SustainWindowSeconds <= seconds.Count; i++)
        {
            var window = seconds.Skip(i).Take(SustainWindowSeconds).ToList();
            if (window[^1].Second - window[0].Second != SustainWindowSeconds - 1) continue;
            var good = window.Where(s => s.Responses > 0 && s.P99Ms <= sloMs && (double)s.Errors / s.Responses < MaxErrorRate).ToList();
            if (good.Count >= SustainWindowSeconds - 1) best = Math.Max(best, good.Min(s => s.Responses));
        }
        return best;
    }

    private static double[] PlannedPerSecond(RunMeta? meta)
    {
        if (meta?.Schedule is not { Length: > 0 } schedule || meta.LoadType != "rps") return [];
        try { return ScheduleParser.Parse(schedule, "meta.json schedule").CountsPerSecond().Select(c => (double)c).ToArray(); }
        catch (InputException) { return []; }
    }

    private static double Ms(long us) => us / 1000.0;

    // lateness.log runs line for line with phout.log; one that is shorter or malformed is bad input.
    private static long NextLateness(StreamReader? reader, string path, long lineNo)
    {
        if (reader is null) return 0;
        var line = reader.ReadLine();
        if (line is null) throw new InputException(path, $"line {lineNo}", "lateness.log has fewer lines than phout.log");
        return long.TryParse(line, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var us)
            ? us
            : throw new InputException(path, $"line {lineNo}", "not a number of microseconds");
    }

    private static IEnumerable<byte[]> ReadLines(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1 << 20);
        var buffer = new byte[1 << 20];
        var carry = new List<byte>();
        int read;
        while ((read = stream.Read(buffer, 0, buffer.Length)) > 0)
        {
            var from = 0;
            int nl;
            while ((nl = Array.IndexOf(buffer, (byte)'\n', from, read - from)) >= 0)
            {
                carry.AddRange(new ArraySegment<byte>(buffer, from, nl - from));
                if (carry.Count > 0) yield return [.. carry];
                carry.Clear();
                from = nl + 1;
            }
            carry.AddRange(new ArraySegment<byte>(buffer, from, read - from));
        }
        if (carry.Count > 0) yield return [.. carry];
    }

    /// <summary>The 12 fields of one phout line, validated.</summary>
    private readonly ref struct PhoutFields
    {
        private readonly long[] _values;

        public PhoutFields(byte[] line, string path, long lineNo)
        {
            var parts = new ReadOnlySpan<byte>(line).Split((byte)'\t');
            _values = new long[12];
            var index = 0;
            foreach (var range in parts)
            {
                var field = line.AsSpan()[range];
                if (index == 0)
                {
                    var dot = field.IndexOf((byte)'.');
                    var whole = dot < 0 ? field : field[..dot];
                    var frac = dot < 0 ? [] : field[(dot + 1)..];
                    if (!Utf8Parser.TryParse(whole, out long s, out _)) throw Bad(path, lineNo, "send time");
                    long ms = 0;
                    for (var i = 0; i < 3; i++) ms = ms * 10 + (i < frac.Length ? frac[i] - '0' : 0);
                    SendTimeMs = s * 1000 + ms;
                }
                else if (index == 1) Tag = range;
                else if (index < 12 && !Utf8Parser.TryParse(field, out _values[index], out _))
                    throw Bad(path, lineNo, $"field {index + 1}");
                index++;
            }
            if (index != 12) throw new InputException(path, $"line {lineNo}", $"a phout line has 12 TAB-separated fields, this one has {index}");
        }

        public long SendTimeMs { get; }

        /// <summary>Where the tag (field 2) lies in the line.</summary>
        public Range Tag { get; }

        public long Long(int index) => _values[index];

        private static InputException Bad(string path, long lineNo, string what) =>
            new(path, $"line {lineNo}", $"{what} is not a number");
    }
}
