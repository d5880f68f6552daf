using Lab.Tools;

namespace Lab.Tests.Tools;

/// <summary>The siege table from raw files as lab siege writes them (header, siege's real output, footer).</summary>
public sealed class SiegeTableTests
{
    private static SiegeRun Raw(string sample, string op, long? before, long? after, int exitCode, string queue = "redis_aof") =>
        SiegeRawFile.Parse("001-x.txt",
            SiegeRawFile.Header($"siege -c10 -t3S http://127.0.0.1:18093/{op}/{queue}", queue, op, 10, before)
            + Samples.Read(sample) + SiegeRawFile.Footer(after, exitCode));

    [Fact]
    public void TheRawFileRoundTrips()
    {
        var run = Raw("siege-write-redis_aof-c10.txt", "write", 0, 4229, 0);

        Assert.Equal(("redis_aof", "write", 10, 0L, 4229L, 0), (run.Queue, run.Op, run.Concurrency!.Value, run.DepthBefore!.Value, run.DepthAfter!.Value, run.ExitCode!.Value));
        Assert.Equal(4229, run.Statistics.Transactions);
    }

    [Fact]
    public void AMissingDepthIsAQuestionMark()
    {
        var run = Raw("siege-read-redis_aof-c10.txt", "read", null, null, 0);

        Assert.Equal((null, null), (run.DepthBefore, run.DepthAfter));
        Assert.Contains("| redis_aof | read | 10 | 3376 | 1132.89 | 100.00 | 0 | 0.05 | 2.98 | ? → ? | ≈6 |  |", SiegeTable.Render("", [run]).Markdown);
    }

    [Fact]
    public void ACleanRunHasNoNotesAndDoesNotFail()
    {
        var (markdown, failed) = SiegeTable.Render("# about\n\n", [Raw("siege-write-redis_aof-c10.txt", "write", 0, 4229, 0)]);

        Assert.False(failed);
        Assert.StartsWith("# about\n\n| queue | op |", markdown);
        Assert.Contains("| redis_aof | write | 10 | 4229 | 1922.27 | 100.00 | 0 | 0.18 | 2.20 | 0 → 4229 | ≈6 |  |", markdown);
    }

    [Fact]
    public void AReadThatEmptiedTheQueueSaysSoWithoutFailing()
    {
        var (notes, failed) = SiegeTable.Notes(Raw("siege-read-empty-c10.txt", "read", 10, 0, 0));

        Assert.False(failed);
        Assert.Equal(["queue empty at the end: the reads after it emptied were answered 204"], notes);
    }

    [Fact]
    public void FailedTransactionsFailTheRun()
    {
        var (notes, failed) = SiegeTable.Notes(Raw("siege-aborted-c5.txt", "write", 0, 0, 0));

        Assert.True(failed);
        Assert.Equal(["siege aborted: too many socket failures (its limit is 1024)"], notes);
    }

    [Fact]
    public void UnsuccessfulTransactionsFailTheRunThoughSiegeCountsNoneFailed()
    {
        var (notes, failed) = SiegeTable.Notes(Raw("siege-unknown-queue-c5.txt", "write", null, null, 0, "nosuchqueue"));

        Assert.True(failed);
        Assert.Equal(["only 0 of the 20 transactions were successful: the others were answered 400 or above"], notes);
    }

    [Fact]
    public void AKillAfterTheStatisticsIsNotedAndKeepsThem()
    {
        var (notes, failed) = SiegeTable.Notes(Raw("siege-write-redis_aof-c10.txt", "write", 0, 4229, ToolRun.Killed));

        Assert.False(failed);
        Assert.Equal(["siege hung after its run and was killed; these are the statistics it printed"], notes);
    }

    [Fact]
    public void AKillBeforeTheStatisticsFailsAndPointsAtTheFile()
    {
        var run = Raw("siege-killed-c5.txt", "read", 5, 5, ToolRun.Killed);
        var (notes, failed) = SiegeTable.Notes(run);

        Assert.True(failed);
        Assert.Equal(["siege printed no statistics (exit 137): see raw/001-x.txt"], notes);
        Assert.Contains("| redis_aof | read | 10 | — | — | — | — | — | — | 5 → 5 |", SiegeTable.Render("", [run]).Markdown);
    }

    [Fact]
    public void ALongestReadNearSiegesSocketTimeoutIsNoted()
    {
        var run = Raw("siege-read-redis_aof-c10.txt", "read", 3, 3, 0);
        var stalled = run with { Statistics = run.Statistics with { LongestSeconds = 30.01m } };

        Assert.Contains(SiegeTable.Notes(stalled).Notes, n => n.StartsWith("longest ≥ 29 s", StringComparison.Ordinal));
        Assert.DoesNotContain(SiegeTable.Notes(stalled with { Op = "write" }).Notes, n => n.StartsWith("longest", StringComparison.Ordinal));
    }

    [Fact]
    public async Task TheReportIsRebuiltFromADirectoryInFileOrder()
    {
        var dir = Directory.CreateTempSubdirectory("siege-report-test-");
        try
        {
            Directory.CreateDirectory(Path.Combine(dir.FullName, "raw"));
            await File.WriteAllTextAsync(Path.Combine(dir.FullName, "raw", "002-redis_aof-read-c10.txt"),
                SiegeRawFile.Header("siege", "redis_aof", "read", 10, 4229) + Samples.Read("siege-read-redis_aof-c10.txt") + SiegeRawFile.Footer(853, 0));
            await File.WriteAllTextAsync(Path.Combine(dir.FullName, "raw", "001-redis_aof-write-c10.txt"),
                SiegeRawFile.Header("siege", "redis_aof", "write", 10, 0) + Samples.Read("siege-write-redis_aof-c10.txt") + SiegeRawFile.Footer(4229, 0));
            var output = new StringWriter();

            var code = await SiegeReport.WriteAsync(dir.FullName, output, TextWriter.Null);

            Assert.Equal(0, code);
            var summary = await File.ReadAllTextAsync(Path.Combine(dir.FullName, "summary.md"));
            Assert.Equal(output.ToString(), summary);
            Assert.True(summary.IndexOf("| write |", StringComparison.Ordinal) < summary.IndexOf("| read |", StringComparison.Ordinal));
            Assert.StartsWith("# siege matrix (", summary);
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }
}
