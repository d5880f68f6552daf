using Lab.Bench;
using Lab.Commands;
using Lab.Tests.Compare;
using Cell = Lab.Tests.Compare.SummaryFixture.Cell;

namespace Lab.Tests.Bench;

/// <summary>lab check, script/check-capacity's judgement: p99 within the SLO at each figure R and over it at factor × R.</summary>
public sealed class CapacityCheckTests
{
    private static (int Code, string Out, string Err) Check(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var code = LabCli.Run(["check", .. args], output, error);
        // Columns are padded; the tests read them with single spaces.
        return (code, System.Text.RegularExpressions.Regex.Replace(output.ToString(), " +", " "), error.ToString());
    }

    private static string Root => Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "..", "..", "..", "..", ".."));

    // A bench report with postgres's figure 16 353 and the default profile (max_error_rate from it, unless given),
    // and the check's two minutes with the p99s and error rate given.
    private static string Report(SummaryFixture f, double p99AtR, double p99Above, string factor = "1.3", double errorRate = 0, double? maxErrorRate = null)
    {
        var report = f.Report("run", 10, new Cell("postgres", "author-read", 16000, 9.1, ConfirmedRps: 16353));
        var profile = ProfileFile.Load(Root, quick: false, overridePath: null).Profile;
        File.WriteAllText(Path.Combine(report, "profile.yaml"), ProfileFile.Render(profile with { MaxErrorRate = maxErrorRate ?? profile.MaxErrorRate }));
        f.Report("run/check", 10, new Cell("postgres", "author-read-x1", 16353, p99AtR, ErrorRate: errorRate), new Cell("postgres", $"author-read-x{factor}", 21258, p99Above));
        return report;
    }

    [Fact]
    public void AFigureHeldAtRAndMissedAbovePasses()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Check(Report(f, 9.6, 27.3), "--storage", "postgres");
        Assert.Equal(0, code);
        Assert.Contains("postgres author-read-x1 #1 16353 9.6 0 held", output);
        Assert.Contains("postgres author-read-x1 16353 ok: 1 of 1 minute held the 10-ms SLO, median p99 9.6 ms", output);
        Assert.Contains("postgres author-read-x1.3 #1 21258 27.3 0 missed", output);
        Assert.Contains("postgres author-read-x1.3 21258 ok: 1 of 1 minute missed the 10-ms SLO, median p99 27.3 ms", output);
    }

    [Fact]
    public void AFigureTheMinuteDoesNotHoldFails()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Check(Report(f, 15.14, 85.9), "--storage", "postgres");
        Assert.Equal(CheckCommand.Failed, code);
        Assert.Contains("FAILED: p99 should have held the 10-ms SLO", output);
    }

    [Fact]
    public void AFigureStillHeldAboveItFailsAsTooFarBelowTheKnee()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Check(Report(f, 4.0, 7.4), "--storage", "postgres");
        Assert.Equal(CheckCommand.Failed, code);
        Assert.Contains("FAILED: p99 should have missed the 10-ms SLO", output);
    }

    // Three minutes a side, named as script/check-capacity names them (scenario-x<factor>-m<k>).
    private static string ReportOfMinutes(SummaryFixture f, double[] p99sAtR, double[] p99sAbove)
    {
        var report = f.Report("run", 10, new Cell("postgres", "author-read", 16000, 9.1, ConfirmedRps: 16353));
        File.WriteAllText(Path.Combine(report, "profile.yaml"), ProfileFile.Render(ProfileFile.Load(Root, quick: false, overridePath: null).Profile));
        var minutes = p99sAtR.Select((p99, i) => new Cell("postgres", $"author-read-x1-m{i + 1}", 16353, p99))
            .Concat(p99sAbove.Select((p99, i) => new Cell("postgres", $"author-read-x1.3-m{i + 1}", 21258, p99)));
        f.Report("run/check", 10, [.. minutes]);
        return report;
    }

    [Fact]
    public void MostMinutesDecideASideNotOneStall()
    {
        using var f = new SummaryFixture();
        // One minute of three met a stall at R and one held above it: the majority still passes both sides.
        var (code, output, _) = Check(ReportOfMinutes(f, [9.6, 17.6, 8.1], [27.3, 7.4, 85.9]), "--storage", "postgres");
        Assert.Equal(0, code);
        Assert.Contains("postgres author-read-x1 #2 16353 17.6 0 not held", output);
        Assert.Contains("postgres author-read-x1 16353 ok: 2 of 3 minutes held the 10-ms SLO, median p99 9.6 ms", output);
        Assert.Contains("postgres author-read-x1.3 21258 ok: 2 of 3 minutes missed the 10-ms SLO, median p99 27.3 ms", output);
    }

    [Fact]
    public void AFigureMostMinutesDoNotHoldFails()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Check(ReportOfMinutes(f, [9.6, 17.6, 15.1], [27.3, 30.2, 85.9]), "--storage", "postgres");
        Assert.Equal(CheckCommand.Failed, code);
        Assert.Contains("FAILED: p99 should have held the 10-ms SLO; 1 of 3 minutes held the 10-ms SLO, median p99 15.1 ms", output);
    }

    [Fact]
    public void AFigureMostMinutesStillHoldAboveFails()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Check(ReportOfMinutes(f, [4.0, 5.2, 3.9], [7.4, 30.2, 9.9]), "--storage", "postgres");
        Assert.Equal(CheckCommand.Failed, code);
        Assert.Contains("FAILED: p99 should have missed the 10-ms SLO; 1 of 3 minutes missed the 10-ms SLO, median p99 9.9 ms", output);
    }

    [Fact]
    public void HalfTheMinutesIsNotAMajority()
    {
        using var f = new SummaryFixture();
        Assert.Equal(CheckCommand.Failed, Check(ReportOfMinutes(f, [9.6, 17.6], [27.3, 30.2]), "--storage", "postgres").Code);
    }

    [Theory]
    [InlineData("author-read-x1", 1.0, 1)]
    [InlineData("author-read-x1.3", 1.3, 1)]
    [InlineData("author-read-x1.30-m2", 1.3, 2)]
    [InlineData("author-read-x1-m12", 1.0, 12)]
    public void AMinutesNameGivesItsFactorAndNumber(string run, double factor, int minute) =>
        Assert.Equal((factor, minute), CapacityCheck.MinuteOf(run, "author-read"));

    [Theory]
    [InlineData("author-write-x1")]
    [InlineData("author-read-x")]
    [InlineData("author-read-x1-m0")]
    [InlineData("author-read-x1-mtwo")]
    public void ARunOfAnotherScenarioOrNamedOtherwiseIsNoMinute(string run) =>
        Assert.Null(CapacityCheck.MinuteOf(run, "author-read"));

    [Fact]
    public void TheFactorIsFoundWhateverItsSpelling()
    {
        using var f = new SummaryFixture();
        Assert.Equal(0, Check(Report(f, 9.6, 27.3, factor: "1.30"), "--storage", "postgres", "--factor", "1.3").Code);
    }

    [Fact]
    public void AMinuteTheCheckDidNotRunIsBadInputByName()
    {
        using var f = new SummaryFixture();
        var report = Report(f, 9.6, 27.3);
        var (code, _, error) = Check(report, "--storage", "postgres", "--factor", "1.5");
        Assert.Equal(2, code);
        Assert.Contains("no run author-read-x1.5 on postgres", error);
        Assert.Contains("no confirmed capacity for author-read on redis", Check(report, "--storage", "redis").Err);
    }

    [Fact]
    public void ErrorsAreJudgedByTheReportsOwnProfile()
    {
        using var f = new SummaryFixture();
        // 0.5 % errors at R: over the default profile's max_error_rate, under that of a report run with 1 %.
        Assert.Equal(CheckCommand.Failed, Check(Report(f, 9.6, 27.3, errorRate: 0.005), "--storage", "postgres").Code);
        using var lenient = new SummaryFixture();
        Assert.Equal(0, Check(Report(lenient, 9.6, 27.3, errorRate: 0.005, maxErrorRate: 0.01), "--storage", "postgres").Code);
    }

    [Fact]
    public void AReportWithoutItsProfileIsBadInput()
    {
        using var f = new SummaryFixture();
        var report = Report(f, 9.6, 27.3);
        File.Delete(Path.Combine(report, "profile.yaml"));
        var (code, _, error) = Check(report, "--storage", "postgres");
        Assert.Equal(2, code);
        Assert.Contains("profile.yaml: file: missing", error);
    }

    [Theory]
    [InlineData(true, 10.0, 0.0, true)]
    [InlineData(true, 10.01, 0.0, false)]
    [InlineData(true, 2.0, 0.001, false)]
    [InlineData(false, 10.0, 0.0, false)]
    [InlineData(false, 10.01, 0.0, true)]
    [InlineData(false, 2.0, 0.001, true)]
    public void AMinuteHoldsAtOrUnderTheSloWithFewerThanOneErrorInAThousand(bool mustHold, double p99Ms, double errorRate, bool passes) =>
        Assert.Equal(passes, CapacityCheck.Passes(mustHold, p99Ms, errorRate, 10, maxErrorRate: 0.001));

    [Theory]
    [InlineData(16353, 1, 16353)]
    [InlineData(16353, 1.3, 21258)]
    [InlineData(24353, 1.3, 31658)]
    public void TheRateIsTheFigureTimesTheFactorRoundedDown(double capacity, double factor, long rate) =>
        Assert.Equal(rate, CapacityCheck.RateAt(capacity, factor));
}
