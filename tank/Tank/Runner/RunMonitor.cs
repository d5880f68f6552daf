using System.Globalization;
using System.Text;
using Tank.Autostop;
using Tank.Stats;

namespace Tank.Runner;

/// <summary>
/// The run's bookkeeping thread: drains finished requests into phout.log (and each one's send
/// lateness, line for line, into lateness.log: phout stays Tank's format), closes each second
/// (stats.log line, progress line on stderr, autostop), and fails requests past the timeout.
/// Keeping this off the sending path is what lets the scheduler stay on time.
/// </summary>
public sealed class RunMonitor : IDisposable
{
    private const long GraceUs = 150_000; // let late completions of a second arrive before closing it

    private readonly RunOptions _options;
    private readonly Clock _clock;
    private readonly ResultSink _sink;
    private readonly ConnectionPool _pool;
    private readonly Stream _phout;
    private readonly Stream _lateness;
    private readonly StreamWriter _stats;
    private readonly byte[] _line = new byte[PhoutFormat.MaxLineBytes];
    private readonly SortedDictionary<long, SecondStats> _open = [];
    private readonly Stack<SecondStats> _spares = new(); // closed seconds, emptied for reuse: no ~221 KB histogram per second
    private readonly long[] _plannedPerSecond;
    private readonly long _startSecond;
    private long _nextSecondToClose;
    private long _lastSends;

    private readonly LatencyHistogram _lastSecondLateness = new();

    public LatencyHistogram Lateness { get; } = new();
    public LatencyHistogram IntervalReal { get; } = new();
    /// <summary>Latency from the intended send time: lateness + interval_real (no coordinated omission).</summary>
    public LatencyHistogram Intended { get; } = new();
    public long Responses { get; private set; }
    public long Errors { get; private set; }
    public IAutostopCriterion? Fired { get; private set; }
    /// <summary>Why <see cref="RunOptions.DecidedWhen"/> ended the run early, if it did.</summary>
    public string? Decided { get; private set; }

    public RunMonitor(RunOptions options, Clock clock, ResultSink sink, ConnectionPool pool)
    {
        _options = options;
        _clock = clock;
        _sink = sink;
        _pool = pool;
        Directory.CreateDirectory(options.OutDir);
        _phout = new FileStream(Path.Combine(options.OutDir, "phout.log"), FileMode.Create, FileAccess.Write, FileShare.Read, 1 << 20);
        _stats = new StreamWriter(Path.Combine(options.OutDir, "stats.log"), false, new UTF8Encoding(false)) { AutoFlush = false };
        _lateness = new FileStream(Path.Combine(options.OutDir, PhoutFormat.LatenessFile), FileMode.Create, FileAccess.Write, FileShare.Read, 1 << 16);
        _plannedPerSecond = options.Plan.CountsPerSecond();
        _startSecond = clock.UnixUs(clock.StartTicks) / 1_000_000;
        _nextSecondToClose = _startSecond;
    }

    /// <summary>One bookkeeping pass; returns the autostop that fired, if any.</summary>
    public IAutostopCriterion? Tick(bool final = false)
    {
        _pool.ExpireTimeouts(Clock.TicksFromMs(_options.TimeoutMs));
        foreach (var record in _sink.Drain()) Account(record);
        var closeBefore = final ? long.MaxValue : (_clock.UnixUs(Clock.Now) - GraceUs) / 1_000_000;
        while (_nextSecondToClose < closeBefore && (!final || _open.Count > 0 || _nextSecondToClose == _startSecond))
            CloseSecond(_nextSecondToClose++);
        if (final) Flush();
        return Fired;
    }

    private void Account(in PhoutRecord record)
    {
        var length = PhoutFormat.Format(record, _line);
        _phout.Write(_line, 0, length);
        // Formatted into the phout line's buffer (already written out): no allocation per request.
        System.Buffers.Text.Utf8Formatter.TryFormat(record.LatenessUs, _line, out var digits);
        _line[digits] = (byte)'\n';
        _lateness.Write(_line, 0, digits + 1);
        var second = Math.Max(record.EndUnixUs / 1_000_000, _nextSecondToClose); // a straggler joins the open second
        if (!_open.TryGetValue(second, out var stats)) _open[second] = stats = SecondStats.Take(_spares);
        stats.Add(record.IntervalRealUs, record.NetCode, record.ProtoCode, _options.Autostop.Count > 0 ? record.Tag : null);
        IntervalReal.Record(record.IntervalRealUs);
        Lateness.Record(record.LatenessUs);
        Intended.Record(record.IntervalRealUs + record.LatenessUs);
        _lastSecondLateness.Record(record.LatenessUs);
        Responses++;
        if (SecondStats.IsError(record.NetCode, record.ProtoCode)) Errors++;
    }

    private void CloseSecond(long second)
    {
        var stats = _open.Remove(second, out var s) ? s : SecondStats.Take(_spares);
        try { CloseSecond(second, stats); }
        finally { stats.Recycle(); } // nothing keeps a closed second: criteria and callbacks take its figures
    }

    private void CloseSecond(long second, SecondStats stats)
    {
        var sends = _pool.Sends;
        var sentThisSecond = sends - _lastSends;
        _lastSends = sends;
        _stats.Write(string.Create(CultureInfo.InvariantCulture, $"{second}\t{sentThisSecond}\t{_pool.InFlight}\n"));
        var elapsed = second - _startSecond;
        if (_options.Progress) Progress(elapsed, sentThisSecond, stats);
        _options.OnSecond?.Invoke(new RunProgress(elapsed + 1, (_options.Plan.DurationMs + 999) / 1000, sentThisSecond, stats.Count, Responses, Errors, IntervalReal.Percentile(99)));
        _lastSecondLateness.Reset();
        if (Decided is null && _options.DecidedWhen?.Invoke(this) is { } why) Decided = why;
        if (Fired is not null) return;
        foreach (var criterion in _options.Autostop)
            if ((stats.Count > 0 || criterion is LimitCriterion) && criterion.Notify(stats, _clock.ElapsedSeconds))
            {
                Fired = criterion;
                Console.Error.WriteLine($"tank: autostop: {criterion.Explain()} (exit code {criterion.ExitCode})");
                break;
            }
        _phout.Flush(); // Tank's shootexec tails phout while we run
        _stats.Flush();
        _lateness.Flush();
    }

    private void Progress(long elapsed, long sent, SecondStats stats)
    {
        var planned = elapsed >= 0 && elapsed < _plannedPerSecond.Length ? _plannedPerSecond[elapsed] : 0;
        var total = (_options.Plan.DurationMs + 999) / 1000;
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"[{elapsed + 1,4}/{total} s] planned {planned} rps, sent {sent} rps, answered {stats.Count} | p50 {stats.IntervalReal.Percentile(50) / 1000.0:F2} ms, p99 {stats.IntervalReal.Percentile(99) / 1000.0:F2} ms | errors {stats.Errors} | send late p99 {_lastSecondLateness.Percentile(99) / 1000.0:F2} ms | in flight {_pool.InFlight}"));
    }

    private void Flush()
    {
        _phout.Flush();
        _stats.Flush();
        _lateness.Flush();
    }

    public void Dispose()
    {
        _phout.Dispose();
        _stats.Dispose();
        _lateness.Dispose();
    }
}
