using System.Net;
using System.Text.Json;
using Lab.Report;
using Harness.CommandLine;

namespace Lab.Tests.Report;

/// <summary>queue.json beside a queue run: the depth column, and the warning for a read run whose queue ran dry.</summary>
public sealed class QueueDepthReportTests
{
    private const string Schedule = "const(100, 10s)";

    private static void Queue(string runDir, object json) =>
        File.WriteAllText(Path.Combine(runDir, "queue.json"), JsonSerializer.Serialize(json));

    private static JsonElement SummaryRun(RunDirectory dir, string storage, string scenario)
    {
        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        return summary.RootElement.GetProperty("runs").EnumerateArray()
            .Single(r => r.GetProperty("storage").GetString() == storage && r.GetProperty("scenario").GetString() == scenario).Clone();
    }

    [Fact]
    public void WithoutQueueJsonThereIsNoQueueColumn()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        dir.Run("beanstalkd", "queue-write", 10, _ => 100, _ => 1, Schedule, httpAt: _ => 201);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        Assert.DoesNotContain(ReportText.QueueDepthColumn, dir.Read("report.md"));
        Assert.DoesNotContain(ReportText.QueueDepthColumn, WebUtility.HtmlDecode(dir.Read("report.html")));
        Assert.Equal(JsonValueKind.Null, SummaryRun(dir, "beanstalkd", "queue-write").GetProperty("queue").ValueKind);
    }

    [Fact]
    public void RunsWithQueueJsonShowTheDepthAtStartAndEndAndOthersADash()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        Queue(dir.Run("beanstalkd", "queue-write", 10, _ => 100, _ => 1, Schedule, httpAt: _ => 201),
            new { queue = "beanstalkd", depth_start = 123456, depth_end = 789, prefilled = 123000 });
        Queue(dir.Run("redis-aof", "queue-write", 10, _ => 100, _ => 1, Schedule, httpAt: _ => 201), new { depth_end = 1000 });
        var runs = ReportBuilder.Build(dir.Path, sloMs: 10);

        Assert.Equal("123456 → 789 (prefilled 123000)", ReportText.QueueDepth(runs.Single(r => r.Storage == "beanstalkd")));
        Assert.Equal("? → 1000", ReportText.QueueDepth(runs.Single(r => r.Storage == "redis-aof")));
        Assert.Equal("—", ReportText.QueueDepth(runs.Single(r => r.Storage == "postgres")));

        var md = dir.Read("report.md");
        Assert.Contains($"| dropped | {ReportText.QueueDepthColumn} |", md);
        Assert.Contains("| 123456 → 789 (prefilled 123000) |", md);
        Assert.Contains("| — |", md);
        Assert.DoesNotContain("Warning", md);
        var html = WebUtility.HtmlDecode(dir.Read("report.html"));
        Assert.Contains($"<th>{ReportText.QueueDepthColumn}</th>", html);
        Assert.Contains("<td>123456 → 789 (prefilled 123000)</td>", html);
        Assert.DoesNotContain("class=\"warn\"", html);

        var queue = SummaryRun(dir, "beanstalkd", "queue-write").GetProperty("queue");
        Assert.Equal(123456, queue.GetProperty("depth_start").GetInt64());
        Assert.Equal(789, queue.GetProperty("depth_end").GetInt64());
        Assert.Equal(123000, queue.GetProperty("prefilled").GetInt64());
        Assert.False(queue.GetProperty("ran_dry").GetBoolean());
        Assert.Equal(JsonValueKind.Null, SummaryRun(dir, "redis-aof", "queue-write").GetProperty("queue").GetProperty("depth_start").ValueKind);
    }

    [Fact]
    public void AReadRunWhoseQueueRanDryIsAWarningInEveryFormat()
    {
        using var dir = new RunDirectory();
        // 100 reads a second for 10 s out of 600 messages: from second 6 on, every answer is a 204.
        Queue(dir.Run("beanstalkd", "queue-read", 10, _ => 100, s => s < 6 ? 2 : 0.3, Schedule, httpAt: s => s < 6 ? 200 : 204),
            new { queue = "beanstalkd", depth_start = 600, depth_end = 0, prefilled = 600 });
        Queue(dir.Run("postgres", "queue-read", 10, _ => 100, _ => 2, Schedule), new { queue = "postgres", depth_start = 5000, depth_end = 4000 });
        var runs = ReportBuilder.Build(dir.Path, sloMs: 10);

        var dry = runs.Single(r => r.Storage == "beanstalkd");
        Assert.True(dry.QueueRanDry);
        Assert.Equal(400, dry.NoContentAnswers);
        Assert.False(runs.Single(r => r.Storage == "postgres").QueueRanDry);
        Assert.Equal("600 → 0 (prefilled 600) ⚠ ran dry", ReportText.QueueDepth(dry));

        var md = dir.Read("report.md");
        Assert.Contains("⚠ Warning", md);
        Assert.Contains("Queue ran dry: beanstalkd · queue-read: the queue held 600 messages when the run began and none when it ended", md);
        Assert.Contains("empty-queue answers (204 No Content: 400 of 1000 answers)", md);
        Assert.DoesNotContain("Queue ran dry: postgres", md);
        Assert.Contains("— ⚠ queue ran dry", md);
        Assert.Contains("⚠ queue ran dry |", md); // the summary cell
        var html = WebUtility.HtmlDecode(dir.Read("report.html"));
        Assert.Contains("class=\"warn\"", html);
        Assert.Contains("Queue ran dry: beanstalkd · queue-read", html);

        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        Assert.Contains("Queue ran dry: beanstalkd", Assert.Single(summary.RootElement.GetProperty("warnings").EnumerateArray()).GetString());
        var queue = SummaryRun(dir, "beanstalkd", "queue-read").GetProperty("queue");
        Assert.True(queue.GetProperty("ran_dry").GetBoolean());
        Assert.Equal(400, queue.GetProperty("no_content_answers").GetInt64());
    }

    [Theory]
    [InlineData("queue-mixed", 0L)]  // writes as much as it reads: ending empty is what it is for
    [InlineData("queue-write", 0L)]
    [InlineData("queue-read", 1L)]
    [InlineData("queue-read", null)] // end not recorded: nothing to go on
    public void OnlyAReadRunEndingAtZeroIsFlagged(string scenario, long? depthEnd)
    {
        using var dir = new RunDirectory();
        Queue(dir.Run("beanstalkd", scenario, 10, _ => 100, _ => 1, Schedule), new { depth_start = 10, depth_end = depthEnd });
        Assert.False(Assert.Single(ReportBuilder.Build(dir.Path, sloMs: 10)).QueueRanDry);
        Assert.DoesNotContain("Warning", dir.Read("report.md"));
    }

    [Fact]
    public void CreatedAndNoContentAreSuccessesNotErrors()
    {
        using var dir = new RunDirectory();
        dir.Run("beanstalkd", "queue-mixed", 10, _ => 100, _ => 1, Schedule, httpAt: s => s % 2 == 0 ? 201 : 204);
        var run = Assert.Single(ReportBuilder.Build(dir.Path, sloMs: 10));
        Assert.Equal(0, run.Errors);
        Assert.Equal(100, run.MaxSustainedRps);
        Assert.Equal("—", ReportText.Codes(run.HttpCodes, net: false));
        Assert.Equal([201, 204], run.HttpCodes.Keys);
    }

    [Fact]
    public void QueueScenariosAreGroupedLikeTheOthers()
    {
        using var dir = new RunDirectory();
        foreach (var scenario in new[] { "queue-write", "queue-read", "queue-mixed", "author-read" })
            foreach (var storage in new[] { "beanstalkd", "postgres" })
                dir.Run(storage, scenario, 10, _ => 100, _ => 1, Schedule);
        var runs = ReportBuilder.Build(dir.Path, sloMs: 10);
        Assert.Equal(["architecture", "author-read: rps @ SLO · p99 ms", "queue-read: rps @ SLO · p99 ms", "queue-write: rps @ SLO · p99 ms", "queue-mixed: rps @ SLO · p99 ms"],
            ReportText.Summary(runs).Header);
        foreach (var scenario in new[] { "queue-write", "queue-read", "queue-mixed" })
        {
            Assert.True(File.Exists(Path.Combine(dir.Path, "charts", $"latency-throughput-{scenario}.svg")));
            Assert.Contains($"![{scenario}](charts/latency-throughput-{scenario}.svg)", dir.Read("report.md"));
        }
    }

    [Fact]
    public void ABrokenQueueJsonNamesTheFile()
    {
        using var dir = new RunDirectory();
        File.WriteAllText(Path.Combine(dir.Run("beanstalkd", "queue-read", 5, _ => 10, _ => 1, Schedule), "queue.json"), "{\"depth_end\": \"none\"}");
        var error = Assert.Throws<InputException>(() => ReportBuilder.Build(dir.Path, sloMs: 10));
        Assert.Contains("queue.json", error.Message);
        Assert.False(File.Exists(Path.Combine(dir.Path, "report.md")));
    }
}
