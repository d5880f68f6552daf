using Harness.Catalogue;
using Crash.Rates;
using Crash.RunLengths;
using Tank.Commands;

namespace Crash.Matrix;

/// <summary>The options of <c>crash matrix</c> (see <see cref="Commands.MatrixCommand"/>).</summary>
public sealed record MatrixOptions
{
    public required string Url { get; init; }
    /// <summary>The published service (IntegrationService.dll and its appsettings.json), which the matrix starts before every run.</summary>
    public required string ServiceDir { get; init; }
    /// <summary>script/services: the server faults act through it.</summary>
    public required string Services { get; init; }
    public required string Out { get; init; }
    /// <summary>--seconds: how long a run writes, unless its fault needs longer (<see cref="LengthOf"/>).</summary>
    public double Seconds { get; init; } = 20;
    /// <summary>How long each server and the service may take to restart: a run lasts until its fault could be over and p99 back under the SLO.</summary>
    public required RestartBudgets RestartBudgets { get; init; }
    /// <summary>Each run's writes per second: fixed, or a share of a bench report's confirmed capacity.</summary>
    public RateRule Rates { get; init; } = RateRule.Default;
    /// <summary>How long db-stop keeps the servers stopped.</summary>
    public double StopSeconds { get; init; } = 5;
    public KeyRange Items { get; init; } = new(1000, 1999);
    public long Locations { get; init; } = 20_000;
    public double RecoverSeconds { get; init; } = 60;
    public bool Check { get; init; }
    /// <summary>The p99 the timeline's recovery is measured against.</summary>
    public double SloMs { get; init; } = 10;
    /// <summary>
    /// --release: servers (script/services names) the matrix stops once no later row needs them (script/crashtest: those it found
    /// down), so that each architecture runs beside only the servers of the rows still to come that are already up, not every topology.
    /// </summary>
    public IReadOnlySet<string> Release { get; init; } = new HashSet<string>();
    /// <summary>--full-length: every run writes for its whole planned length, even where p99 held back under the SLO long before (<see cref="Timeline.EarlyEnd"/>).</summary>
    public bool FullLength { get; init; }

    /// <summary>The catalogue, in the bench's order: whose write cell stands for a row's where a report has none of its own.</summary>
    public StorageCatalogue BenchCatalogue { get; init; } = new([]);

    public RunRate RateOf(MatrixRow row) =>
        Rates.For(row.Storage.Name, row.Kind, sameWrites: BenchCatalogue.SameWritesAs(row.Kind.Serves(), row.Storage.Name));

    /// <summary>A third of the way into --seconds, in whole seconds as script/crashtest always did (an extended run keeps it: only its end moves; a window row's may come later).</summary>
    public double FaultAt => Math.Floor(Seconds / 3);

    /// <summary>
    /// The row's length: --seconds, or longer where its fault's budget, the held window and the margin need more;
    /// a row whose promise is a window has its fault late enough for writes older than the window (<see cref="RunLength.AfterWindow"/>).
    /// </summary>
    public RunLength LengthOf(MatrixRow row)
    {
        var length = RunLength.For(Seconds, FaultAt, row.Fault.BudgetFor(row.Storage, RestartBudgets, StopSeconds));
        return row.Fault.WindowMs(row.Storage) is { } window
            ? length.AfterWindow(window, row.Kind.IsQueue() ? Queue.QueueCrashTest.ReadShare : 0)
            : length;
    }
}
