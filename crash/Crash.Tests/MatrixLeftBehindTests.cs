using System.Diagnostics;
using Crash.Control;
using Crash.Matrix;
using Harness.Processes;

namespace Crash.Tests;

/// <summary>
/// The matrix's check at its end that the failover rows left nothing behind (a partition rule, a node dead or still
/// stopped), through a stand-in for script/services whose answers each test sets.
/// </summary>
public sealed class MatrixLeftBehindTests : IDisposable
{
    private readonly StandInServices _services = new();
    private Process Node => _services.Server;

    public void Dispose() => _services.Dispose();

    private static IReadOnlyList<MatrixRow> Rows(params string[] faults) =>
        MatrixPlan.Build(CatalogueFixture.Load(), ["redis-sentinel"], ["kv"], faults);

    /// <summary>script/services answering <c>partitions</c> with <paramref name="partitions"/> and <c>pid</c> with the stand-in node (or failing).</summary>
    private ServerControl Services(string partitions = "", bool pidFails = false) => _services.Control($"""
          partitions) printf '%s' "{partitions}" ;;
          pid) {(pidFails ? "echo 'error: redis-sentinel is not running' >&2; exit 1" : $"echo {Node.Id}")} ;;
        """);

    [Fact]
    public void WholeServersLeaveNothingBehind() =>
        Assert.Empty(MatrixRunner.LeftBehind(Services(), Rows("primary-partition", "primary-kill")));

    [Fact]
    public void APartitionLeftInPlaceFailsTheMatrix()
    {
        var problem = Assert.Single(MatrixRunner.LeftBehind(Services(partitions: "integration_partition_16395\n"), Rows("primary-partition")));
        Assert.Contains("partitions left in place after the runs: integration_partition_16395", problem);
    }

    [Fact]
    public void ANodeNotRunningAfterTheRunsFailsTheMatrix()
    {
        var problem = Assert.Single(MatrixRunner.LeftBehind(Services(pidFails: true), Rows("primary-kill")));
        Assert.Contains("redis-sentinel: a node is not running after the runs", problem);
    }

    [Fact]
    public async Task ANodeStillStoppedFailsTheMatrix()
    {
        Signals.Send(Node.Id, Signals.Stop);
        var deadline = DateTime.UtcNow.AddSeconds(5);
        while (Signals.State(Node.Id) != 'T' && DateTime.UtcNow < deadline) await Task.Delay(20);

        var problem = Assert.Single(MatrixRunner.LeftBehind(Services(), Rows("primary-stop")));
        Assert.Equal($"redis-sentinel: still stopped (SIGSTOP) after the runs: pid {Node.Id}", problem);
    }

    [Fact]
    public void RowsWithoutFailoverAskNothing() =>
        // The stand-in would name a partition and fail pid: neither is asked when no row is a failover.
        Assert.Empty(MatrixRunner.LeftBehind(Services(partitions: "integration_partition_1", pidFails: true), Rows("db-kill")));

    [Fact]
    public void EachArchitecturesServersGoDownAfterItsLastRunIfTheMatrixMayStopThem()
    {
        var catalogue = CatalogueFixture.Load();
        var rows = MatrixPlan.Build(catalogue, ["postgres", "postgres-redis-cache", "redis-sentinel"], ["author", "kv"], ["db-kill"]);
        Assert.Equal(["postgres author db-kill", "postgres kv db-kill", "postgres-redis-cache author db-kill", "redis-sentinel kv db-kill"], rows.Select(r => r.Label));
        var release = new HashSet<string> { "postgres", "redis-cache", "redis-sentinel" };
        Assert.Equal(["postgres", "redis-cache"], MatrixRunner.Needs(rows[2]));
        // postgres serves the cache architecture after its own rows; the cache and the sentinel topology go after their last.
        Assert.Empty(MatrixRunner.Releasable(rows, 0, release));
        Assert.Empty(MatrixRunner.Releasable(rows, 1, release));
        Assert.Equal(["postgres", "redis-cache"], MatrixRunner.Releasable(rows, 2, release));
        Assert.Equal(["redis-sentinel"], MatrixRunner.Releasable(rows, 3, release));
        // A server the caller found up is left up.
        Assert.Empty(MatrixRunner.Releasable(rows, 3, new HashSet<string> { "postgres" }));
    }

    [Fact]
    public void AReleasedServerIsNotCheckedAgainAtTheEnd() =>
        Assert.Empty(MatrixRunner.LeftBehind(Services(pidFails: true), Rows("primary-kill"), new HashSet<string> { "redis-sentinel" }));
}
