using System.Diagnostics;
using System.Globalization;
using Harness;

namespace Lab.Bench;

/// <summary>
/// Where a bench run is: each cell's log line says <c>[i/N]</c> and about how long the rest will
/// take, from the cells done so far (before the first, from the profile's planned durations).
/// </summary>
public sealed class BenchProgress(int total, double plannedSecondsPerCell)
{
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private int _started;

    public int Total => total;

    /// <summary>Starts the next cell: its label (<c>[3/12] author-read on postgres</c>) after logging it with the time left.</summary>
    public string Next(BenchCell cell)
    {
        var done = _started;
        _started++;
        var label = $"[{_started}/{total}] {cell.Label}";
        ToolLog.Write($"{label}: about {Format(SecondsLeft(done, _clock.Elapsed.TotalSeconds))} left");
        return label;
    }

    private Stopwatch? _repetitions;
    private int _repetitionsDone;

    /// <summary>
    /// Logs where the repetitions are (<c>repetition 2, cell 3/12</c>) and the time they have left,
    /// at their pace so far (before the first, from <paramref name="plannedSeconds"/> each).
    /// </summary>
    public void Repetition(int round, int index, int count, int rounds, double plannedSeconds)
    {
        _repetitions ??= Stopwatch.StartNew();
        var left = rounds * count - _repetitionsDone;
        var pace = _repetitionsDone > 0 ? _repetitions.Elapsed.TotalSeconds / _repetitionsDone : plannedSeconds;
        ToolLog.Write($"repetition {round}/{rounds}, cell {index}/{count}: about {Format(left * pace)} left");
        _repetitionsDone++;
    }

    /// <summary>Seconds the cells from the <paramref name="done"/>-th on will take, at the pace so far.</summary>
    public double SecondsLeft(int done, double elapsedSeconds) =>
        (total - done) * (done > 0 ? elapsedSeconds / done : plannedSecondsPerCell);

    public static string Format(double seconds) =>
        seconds >= 90 ? string.Create(CultureInfo.InvariantCulture, $"{Math.Round(seconds / 60)} min") : string.Create(CultureInfo.InvariantCulture, $"{Math.Round(seconds)} s");
}
