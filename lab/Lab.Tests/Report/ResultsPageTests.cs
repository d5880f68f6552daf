using Lab.Report;
using Harness.CommandLine;

namespace Lab.Tests.Report;

/// <summary>docs/RESULTS.md as <c>lab report --results</c> writes it from a report's summary.json.</summary>
public sealed class ResultsPageTests
{
    private const string Schedule = "line(1, 200, 10s)";

    /// <summary>The page of a one-run report beside a crash test whose summary.json is <paramref name="crashSummary"/>.</summary>
    private static string PageWithCrashTest(string crashSummary)
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, s => 20 * (s + 1), _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        var crash = Directory.CreateDirectory(Path.Combine(dir.Path, "crash-1")).FullName;
        File.WriteAllText(Path.Combine(crash, "summary.json"), crashSummary);
        return ResultsPage.Render(Path.Combine(dir.Path, "summary.json"), dir.Path, Path.Combine(dir.Path, "RESULTS.md"), [Path.Combine(crash, "summary.json")]);
    }

    [Fact]
    public void FaultsUnderLoadSayWhichBenchReportTheirRatesCameFromAndWhetherItIsThisPagesRun()
    {
        var page = PageWithCrashTest("""
            [{"storage":"postgres","kind":"author","fault":"db-kill","started_at":"2026-11-27T01:13:00Z","acked":30638,"lost":0,"in_doubt":3,"stale":0,
              "rate":1630.5,"rate_from_report":true,"rate_report":"reports/20990101T000000Z","seconds":30,"requested_seconds":20,
              "timeline":{"slo_ms":10,"fault_started_s":6,"fault_ended_s":8.1,"p99_back_s":1.5,"shed_503":12,"baseline_p99_ms":13,"seconds":[]},
              "check":{"promise":"processCrash","promised":"nothing","ok":true}}]
            """);
        var underLoad = page[page.IndexOf("## Faults under load", StringComparison.Ordinal)..];
        Assert.Contains("Rates from the bench report `reports/20990101T000000Z`; **not** the run on this page", underLoad);
        Assert.Contains("| postgres | author | db-kill | 1 630 | 30 | 13 ms | 6–8.1 | 1.5 s | 12 |", underLoad);
    }

    [Fact]
    public void ThePageHasACellPerArchitectureAndScenarioAndTheCommandThatRegeneratesIt()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, s => 20 * (s + 1), _ => 1, Schedule);
        dir.Run("tarantool-memtx", "author-read", 10, s => 20 * (s + 1), _ => 1, Schedule);
        dir.Run("postgres", "author-write", 10, s => 20 * (s + 1), _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        var docs = Directory.CreateDirectory(Path.Combine(dir.Path, "repo", "docs")).FullName;

        var page = ResultsPage.Render(Path.Combine(dir.Path, "summary.json"), dir.Path, Path.Combine(docs, "RESULTS.md"));

        Assert.Contains("--results docs/RESULTS.md --readme README.md`", page);
        Assert.Contains("| architecture | author-read | author-write |", page);
        Assert.Contains("| tarantool-memtx | ", page);
        Assert.Matches(@"\| postgres \| [^|]*p99 [0-9.]+ ms over the ramp \| [^|]*over the ramp \|", page);
        Assert.Contains("| tarantool-memtx | " , page);
        Assert.Matches(@"\| tarantool-memtx \| [^|]+ \| — \|", page);
    }

    [Fact]
    public void ThePageDatesTheRunsNotTheDayTheReportWasGeneratedAgain()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, s => 20 * (s + 1), _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);

        var page = ResultsPage.Render(Path.Combine(dir.Path, "summary.json"), dir.Path, Path.Combine(dir.Path, "RESULTS.md"));
        var readme = ResultsPage.ReplaceBlock($"{ResultsPage.BlockStart}\n{ResultsPage.BlockEnd}", Path.Combine(dir.Path, "summary.json"), "README.md");

        var day = DateTimeOffset.FromUnixTimeSeconds(RunDirectory.StartUnixSeconds).ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains($"from the runs of {day}.", page);
        Assert.Contains($"from the run of {day} ", readme);
    }

    [Fact]
    public void AConfirmedCellShowsTheConfirmedRateItsSpreadAndTheHoldsP99()
    {
        using var dir = new RunDirectory();
        var summary = Path.Combine(dir.Path, "summary.json");
        File.WriteAllText(summary, """
            {"generated_at":"2026-11-25T15:00:00Z","slo_ms":10,"environment":{"command":"script/bench --repeat 3","machine":{"cores":2,"cpu":"x","memory_mb":1,"os":"linux"}},
             "runs":[{"storage":"postgres","scenario":"author-read","quantiles_ms":{"p99":30.5},"max_sustained_rps":900,"slo_held_at_peak":false,
                      "confirmed_rps":5000,"confirmed_p99_ms":7.25,"interval":{"low":4800,"high":5300,"coverage":0.75,"method":"min-max"},"repeats":[{"rps":4800,"kind":"crossing","confirmed":true},{"rps":5000,"kind":"crossing","confirmed":false},{"rps":5300,"kind":"at_least","confirmed":true}],"spread":{"confirmed_rps":{"min":4800,"max":5300}},"cpu":[{"process":"service","us_per_request":40},{"process":"tank","us_per_request":9}]}]}
            """);

        var page = ResultsPage.Render(summary, dir.Path, Path.Combine(dir.Path, "RESULTS.md"));

        Assert.Contains("| postgres | 5 000 [4 800–5 300, 75 %]; 4 800✓, 5 000✗, ≥ 5 300✓ · p99 7.25 ms |", page);
        Assert.Contains("| postgres | 40 |", page);
        Assert.Contains("**Run:** `script/bench --repeat 3`", page);
    }

    [Fact]
    public void TheReadmeBlockIsReplacedAndTheRestOfThePageKept()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, s => 20 * (s + 1), _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        const string page = "# Title\n\n<!-- results:begin -->\nold table\n<!-- results:end -->\n\nafter\n";

        var replaced = ResultsPage.ReplaceBlock(page, Path.Combine(dir.Path, "summary.json"), "README.md");

        Assert.StartsWith("# Title\n\n<!-- results:begin -->\n", replaced);
        Assert.EndsWith("<!-- results:end -->\n\nafter\n", replaced);
        Assert.DoesNotContain("old table", replaced);
        Assert.Matches(@"\| postgres \| [0-9 ]+ \(ramp\) \|", replaced);
    }

    [Fact]
    public void APageWithoutTheBlockIsAnErrorNamingIt()
    {
        var error = Assert.Throws<InputException>(() => ResultsPage.ReplaceBlock("# no block\n", "unused.json", "README.md"));
        Assert.Contains("README.md", error.Message);
    }

    [Fact]
    public void WithACrashTestTheDurabilityTableListsEveryRowAgainstItsPromise()
    {
        var page = PageWithCrashTest("""
            [{"storage":"redis-rdb","kind":"queue","fault":"db-kill","started_at":"2026-11-25T15:15:28Z","acked":797,"lost":143,"duplicated":72,"in_doubt":283,
              "check":{"promise":"processCrash","promised":"since-snapshot","ok":true}},
             {"storage":"postgres","kind":"author","fault":"power-loss","started_at":"2026-11-25T15:16:00Z","acked":663,"lost":0,"in_doubt":4,"stale":0,
              "check":{"promise":"powerLoss","promised":"nothing","ok":false}}]
            """);

        Assert.Contains("## Durability, measured", page);
        Assert.Contains("| postgres | author | power-loss | 663 | 0 | — | — | 4 | 0 | powerLoss: nothing | **fails** |", page);
        Assert.Contains("| redis-rdb | queue | db-kill | 797 | 143 | — | 72 | 283 | — | processCrash: since-snapshot | ok |", page);
        Assert.Contains("--crash ", page);
    }

    [Fact]
    public void TheDurabilityTableShowsTheWindowTheOldestLossAndARowThatCheckedNothingOrLostWhatItsPathAllows()
    {
        var page = PageWithCrashTest("""
            [{"storage":"tarantool-memtx","kind":"author","fault":"power-loss","started_at":"2026-11-28T05:00:00Z","acked":3025,"lost":933,"in_doubt":0,"stale":0,"oldest_lost_age_ms":19500,
              "check":{"promise":"powerLoss","promised":"window","window_ms":30000,"ok":true,"not_checked":"no write older than the window","notes":["933 keys lost or stale, all within the 30000 ms window (the oldest 19500 ms before the fault)"]}},
             {"storage":"redis-aof","kind":"queue","fault":"power-loss","started_at":"2026-11-28T05:01:00Z","acked":900,"lost":40,"in_doubt":0,"oldest_lost_age_ms":4200,
              "check":{"promise":"powerLoss","promised":"window","window_ms":1000,"ok":false,"notes":[]}},
             {"storage":"postgres","kind":"queue","fault":"db-stop","started_at":"2026-11-28T05:02:00Z","acked":800,"lost":4,"duplicated":0,"in_doubt":4,
              "check":{"promise":"processCrash","promised":"nothing","ok":true,"notes":["lost 4 (at-most-once read path: 4 reads in doubt)"]}}]
            """);

        Assert.Contains("| tarantool-memtx | author | power-loss | 3025 | 933 | 19.5 s | — | 0 | 0 | powerLoss: window 30 s | not checked: no write older than the window; 933 keys lost", page);
        Assert.Contains("| redis-aof | queue | power-loss | 900 | 40 | 4.2 s | — | 0 | — | powerLoss: window 1 s | **fails** |", page);
        Assert.Contains("| postgres | queue | db-stop | 800 | 4 | — | 0 | 4 | — | processCrash: nothing | ok; lost 4 (at-most-once read path: 4 reads in doubt) |", page);
    }

    [Fact]
    public void RunsUnderLoadGetTheirRecoveryTableAndLightRunsDoNot()
    {
        var page = PageWithCrashTest("""
            [{"storage":"beanstalkd","kind":"queue","fault":"db-stop","started_at":"2026-11-27T01:12:00Z","acked":84707,"lost":0,"duplicated":0,"in_doubt":2,
              "rate":5581.5,"rate_from_report":true,
              "timeline":{"slo_ms":10,"fault_started_s":5.999,"fault_ended_s":11.06,"p99_back_s":2.94,"shed_503":522,"baseline_p99_ms":2.09,"seconds":[]},
              "check":{"promise":"processCrash","promised":"nothing","ok":true}},
             {"storage":"postgres","kind":"author","fault":"db-kill","started_at":"2026-11-27T01:13:00Z","acked":30638,"lost":0,"in_doubt":3,"stale":0,
              "rate":1630.5,"rate_from_report":true,
              "timeline":{"slo_ms":10,"fault_started_s":6,"fault_ended_s":8.097,"p99_back_s":null,"shed_503":1243,"baseline_p99_ms":12.5,"seconds":[]},
              "check":{"promise":"processCrash","promised":"nothing","ok":true}},
             {"storage":"redis-aof","kind":"queue","fault":"db-kill","started_at":"2026-11-27T01:14:00Z","acked":4000,"lost":0,"duplicated":0,"in_doubt":1,
              "rate":200,"rate_from_report":false,
              "timeline":{"slo_ms":10,"fault_started_s":6,"fault_ended_s":6.3,"p99_back_s":1,"shed_503":3,"baseline_p99_ms":1,"seconds":[]},
              "check":{"promise":"processCrash","promised":"nothing","ok":true}}]
            """);

        var underLoad = page[page.IndexOf("## Faults under load", StringComparison.Ordinal)..];
        Assert.Contains("| beanstalkd | queue | db-stop | 5 582 | — | 2.09 ms | 6–11.1 | 2.94 s | 522 |", underLoad);
        Assert.Contains("| postgres | author | db-kill | 1 630 | — | 13 ms | 6–8.1 | not within the run | 1 243 |", underLoad);
        Assert.Contains("do not record which bench report their rates came from", underLoad);
        Assert.DoesNotContain("redis-aof", underLoad.Split("## ")[1]);
        // Every row is still in the durability table.
        Assert.Contains("| redis-aof | queue | db-kill | 4000 | 0 |", page);
    }

    [Fact]
    public void ALaterCrashTestOfTheSameRowSupersedesTheEarlierOne()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, s => 20 * (s + 1), _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        string Crash(string name, string started, int lost)
        {
            var crash = Directory.CreateDirectory(Path.Combine(dir.Path, name)).FullName;
            File.WriteAllText(Path.Combine(crash, "summary.json"),
                "[{\"storage\":\"redis-aof\",\"kind\":\"queue\",\"fault\":\"power-loss\",\"started_at\":\"" + started + "\",\"acked\":100,\"lost\":" + lost +
                ",\"in_doubt\":0,\"check\":{\"promise\":\"powerLoss\",\"promised\":\"window\",\"ok\":true}}]");
            return Path.Combine(crash, "summary.json");
        }

        var page = ResultsPage.Render(Path.Combine(dir.Path, "summary.json"), dir.Path, Path.Combine(dir.Path, "RESULTS.md"),
            [Crash("later", "2026-11-25T16:30:00Z", 7), Crash("earlier", "2026-11-25T16:00:00Z", 99)]);

        Assert.Contains("| redis-aof | queue | power-loss | 100 | 7 |", page);
        Assert.DoesNotContain("| 99 |", page);
    }

    // One run of a failover row as crash writes it: labelled "… #k", with unavailable_s and a timeline.
    private static string FailoverRun(string fault, int k, string unavailableS, int lost, string p99BackS, bool ok = true, int stale = 0, string idle = "null") =>
        $$"""
        {"storage":"redis-sentinel","kind":"kv","fault":"{{fault}}","label":"redis-sentinel kv {{fault}} #{{k}}","started_at":"2026-12-01T10:0{{k}}:00Z",
         "acked":4000,"lost":{{lost}},"stale":{{stale}},"duplicated":0,"in_doubt":0,"unavailable_s":{{unavailableS}},"idle_cores_during_fault":{{idle}},
         "timeline":{"slo_ms":10,"fault_started_s":6,"fault_ended_s":6.1,"p99_back_s":{{p99BackS}},"shed_503":40,"seconds":[]},
         "check":{"promise":"failoverLoss","promised":"unreplicated","ok":{{(ok ? "true" : "false")}},"problems":{{(ok ? "[]" : "[\"lost beyond the promise\"]")}} }
        }
        """;

    // Five primary-kill runs losing nothing, five primary-stop runs losing some (one never back, one failing its check), and a single-server db-kill.
    private static readonly string FailoverSummary = "[" + string.Join(",",
        FailoverRun("primary-kill", 1, "2.1", 0, "1.2", idle: "0.2"), FailoverRun("primary-kill", 2, "3.4", 0, "2.5", idle: "0.9"),
        FailoverRun("primary-kill", 3, "2.8", 0, "null", idle: "0.45"), FailoverRun("primary-kill", 4, "5", 0, "1.8", idle: "1.3"), FailoverRun("primary-kill", 5, "3", 0, "3.1", idle: "0.5"),
        FailoverRun("primary-stop", 1, "6.5", 0, "4"), FailoverRun("primary-stop", 2, "null", 12, "null", ok: false, stale: 1),
        FailoverRun("primary-stop", 3, "7.5", 0, "5"), FailoverRun("primary-stop", 4, "5.5", 7, "6"), FailoverRun("primary-stop", 5, "8", 3, "9"),
        """
        {"storage":"postgres","kind":"kv","fault":"db-kill","label":"postgres kv db-kill","started_at":"2026-12-01T09:00:00Z","acked":3000,"lost":0,"stale":0,
         "duplicated":0,"in_doubt":1,"unavailable_s":1.5,"check":{"promise":"processCrash","promised":"nothing","ok":true,"problems":[]}}
        """) + "]";

    [Fact]
    public void TheFailoverTableShowsEachRowsRunsAsADistribution()
    {
        var page = PageWithCrashTest(FailoverSummary);

        var failover = page[page.IndexOf("## Failover", StringComparison.Ordinal)..];
        Assert.Contains("distribution over 5 runs", failover);
        Assert.Contains("`script/crashtest --storage redis-sentinel --kind kv --fault primary-kill,primary-stop`", failover);
        // Writes failing 2.1, 2.8, 3, 3.4, 5 s; p99 back 1.2, 1.8, 2.5, 3.1 s and one not within the run.
        // Idle cores 0.2, 0.45, 0.5, 0.9, 1.3.
        Assert.Contains("| redis-sentinel | kv | primary-kill | 5 | 3 s | 5 s | 0 | 0 (0 of 5) | 0 | 0 | 2.15 s | 3.1 s | 1 | 0.5 | failoverLoss: unreplicated | ok |", failover);
        // Writes failing 5.5, 6.5, 7.5, 8 s and one never back; 22 lost in three runs; p99 back 4, 5, 6, 9 s and one not.
        Assert.Contains("| redis-sentinel | kv | primary-stop | 5 | 7 s | 8 s | 1 | 22 (3 of 5) | 1 | 0 | 5.5 s | 9 s | 1 | — | failoverLoss: unreplicated | **1 of 5 failed** |", failover);
    }

    [Fact]
    public void APowerLossOfEveryNodeOfAReplicatedArchitectureIsAFailoverRowAndALoneServersStaysInTheDurabilityTable()
    {
        // crash marks a run on a replicated architecture "replicated": its power-loss cut every node at once.
        static string PowerLoss(string storage, int k, bool replicated, int lost) =>
            $$"""
            {"storage":"{{storage}}","kind":"kv","fault":"power-loss","label":"{{storage}} kv power-loss{{(replicated ? $" #{k}" : "")}}","started_at":"2026-12-01T11:0{{k}}:00Z",
             "replicated":{{(replicated ? "true" : "false")}},"acked":4000,"lost":{{lost}},"stale":0,"duplicated":0,"in_doubt":3,"unavailable_s":8.5,
             "check":{"promise":"powerLoss","promised":"nothing","ok":{{(lost == 0 ? "true" : "false")}},"problems":[]} }
            """;
        var page = PageWithCrashTest("[" + string.Join(",", PowerLoss("postgres-patroni-sync", 1, true, 0), PowerLoss("postgres-patroni-sync", 2, true, 5),
            PowerLoss("postgres", 1, false, 0)) + "]");

        var durability = page[page.IndexOf("## Durability, measured", StringComparison.Ordinal)..page.IndexOf("## Failover", StringComparison.Ordinal)];
        Assert.Contains("| postgres | kv | power-loss | 4000 | 0 |", durability);
        Assert.DoesNotContain("postgres-patroni-sync", durability);
        var failover = page[page.IndexOf("## Failover", StringComparison.Ordinal)..];
        Assert.Contains("| postgres-patroni-sync | kv | power-loss | 2 | 8.5 s | 8.5 s | 0 | 5 (1 of 2) |", failover);
        Assert.Contains("powerLoss: nothing | **1 of 2 failed** |", failover);
        Assert.DoesNotContain("| postgres | kv | power-loss", failover);
    }

    [Fact]
    public void CrashFoldersOfFailoverRunsOnlyGiveNoEmptyDurabilityTable()
    {
        var onlyFailovers = "[" + string.Join(",", FailoverRun("primary-kill", 1, "2.1", 0, "1.2"), FailoverRun("primary-kill", 2, "3.4", 0, "2.5")) + "]";
        var page = PageWithCrashTest(onlyFailovers);

        var durability = page[page.IndexOf("## Durability, measured", StringComparison.Ordinal)..page.IndexOf("## Failover", StringComparison.Ordinal)];
        Assert.Contains("These folders hold no single-server run, only failover runs.", durability);
        Assert.DoesNotContain("| architecture |", durability);
        Assert.Contains("| redis-sentinel | kv | primary-kill | 2 |", page);
    }

    [Fact]
    public void FailoverRunsAreLeftOutOfTheSingleServerTables()
    {
        var page = PageWithCrashTest(FailoverSummary);

        var durability = page[page.IndexOf("## Durability, measured", StringComparison.Ordinal)..page.IndexOf("## Failover", StringComparison.Ordinal)];
        Assert.Contains("| postgres | kv | db-kill | 3000 | 0 |", durability);
        Assert.DoesNotContain("| redis-sentinel |", durability);
        Assert.Contains("[Failover](#failover)", durability);
    }

    [Fact]
    public void ACrashTestWithoutFailoverRunsHasNoFailoverSection()
    {
        var page = PageWithCrashTest("""
            [{"storage":"postgres","kind":"kv","fault":"db-kill","label":"postgres kv db-kill","started_at":"2026-12-01T09:00:00Z","acked":3000,"lost":0,"in_doubt":1,
              "unavailable_s":1.5,"check":{"promise":"processCrash","promised":"nothing","ok":true,"problems":[]}}]
            """);

        Assert.Contains("## Durability, measured", page);
        Assert.DoesNotContain("## Failover", page);
        Assert.DoesNotContain("[Failover](#failover)", page);
    }
}
