using Harness.CommandLine;
using Lab.Bench;
using Tank.Ammo;
using Tank.Schedule;

namespace Lab.Tests.Bench;

/// <summary>The method as data: the profiles in lab/profiles parse, override one another and are checked.</summary>
public sealed class BenchProfileTests
{
    private static string Root => Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "..", "..", "..", "..", ".."));

    private static BenchProfile Load(bool quick, string? overridePath = null) => ProfileFile.Load(Root, quick, overridePath).Profile;

    [Theory]
    [InlineData(false, 2000, "line(1, 2000, 2s)", "line(1, 3000, 6s)")]
    [InlineData(true, 2000, "line(1, 2000, 1s)", "line(1, 3000, 3s)")]
    public void WarmUpClimbsToCAndTheMeasuredRampToOneAndAHalfC(bool quick, long capacity, string warmup, string ramp)
    {
        var profile = Load(quick);
        Assert.Equal((warmup, ramp), (profile.Warmup(capacity), profile.Ramp(capacity)));
        Assert.Equal(profile.RampSeconds * 1000, ScheduleParser.Parse(ramp).DurationMs);
    }

    [Fact]
    public void QuickReadsDefaultThenItsOwnKeys()
    {
        var (quick, full) = (Load(true), Load(false));
        Assert.Equal(("quick", "default"), (quick.Name, full.Name));
        Assert.True(quick.Items < full.Items && quick.AmmoCount < full.AmmoCount && quick.StepSeconds < full.StepSeconds && quick.ConfirmSeconds < full.ConfirmSeconds);
        Assert.True(quick.Repeats == 1 && full.Repeats >= 3);
        // The confirmation is long enough for a periodic stall to land in every window.
        Assert.True(full.ConfirmSeconds >= 30 && full.WindowSeconds <= full.ConfirmSeconds / 3);
        // Steps long enough that one GC pause cannot decide them; a confirmation warms up longer than a step.
        Assert.True(full.StepSeconds >= 8);
        Assert.Equal((1, 3), (full.HoldWarmupSeconds(confirmation: false), full.HoldWarmupSeconds(confirmation: true)));
        // Keys quick.yaml does not name are default.yaml's.
        Assert.Equal((full.StepFactor, full.UnstableSpread), (quick.StepFactor, quick.UnstableSpread));
    }

    [Fact]
    public void AUserProfileChangesOnlyTheKeysItNames()
    {
        var file = Path.GetTempFileName();
        try
        {
            File.WriteAllText(file, "repeats: 5\nconfirm_seconds: 40\n");
            var profile = Load(false, file);
            Assert.Equal((5, 40), (profile.Repeats, profile.ConfirmSeconds));
            Assert.Equal(Load(false) with { Repeats = 5, ConfirmSeconds = 40 }, profile);
        }
        finally { File.Delete(file); }
    }

    [Theory]
    [InlineData("repeat: 5\n", "unknown key 'repeat'")]
    [InlineData("repeats: five\n", "not of its key's type")]
    [InlineData("repeats: 0\n", "repeats must be at least 1")]
    [InlineData("step_factor: 1\n", "step_factor must be above 1")]
    [InlineData("window_seconds: 90\n", "window_seconds must lie between 1 and confirm_seconds")]
    [InlineData("probe_schedule: nonsense(\n", "probe_schedule")]
    [InlineData("step_retries: -1\n", "step_retries, step_warmup_seconds and confirm_warmup_seconds cannot be negative")]
    [InlineData("confirm_warmup_seconds: -2\n", "step_retries, step_warmup_seconds and confirm_warmup_seconds cannot be negative")]
    public void AProfileWithAMistakeIsBadInputNamingIt(string yaml, string message)
    {
        var file = Path.GetTempFileName();
        try
        {
            File.WriteAllText(file, yaml);
            var error = Assert.Throws<InputException>(() => Load(false, file));
            Assert.Contains(message, error.Message);
            Assert.Contains(file, error.Message);
        }
        finally { File.Delete(file); }
    }

    [Fact]
    public void TheRenderedProfileReadsBackAsTheSameProfile()
    {
        var file = Path.GetTempFileName();
        try
        {
            var quick = Load(true);
            File.WriteAllText(file, ProfileFile.Render(quick));
            Assert.Equal(quick, Load(false, file));
        }
        finally { File.Delete(file); }
    }

    [Fact]
    public void TheDefaultProfileLeavesOutSevenCellsOfTheDefaultRunAndQuickTheReplicatedQueues()
    {
        // The fixture predates the replicated queues; the profile names them.
        var catalogue = CatalogueFixture.Entries
            .Concat(new[] { ("nats-r3", "nats-r3"), ("rabbitmq-r3", "rabbitmq-r3"), ("redis-sentinel", "redis-sentinel") }
                .Select(a => Architecture.Of(a.Item1, ["Queue"], [a.Item2], "replicated")))
            .ToList();
        var all = BenchMatrix.Build(catalogue, null, null, 0, false).Cells;
        var matrix = BenchMatrix.Build(catalogue, null, null, 0, false, leaveOut: Load(false).LeftOutCells);
        // Every entry names an architecture of the full catalogue: a misspelt one would leave nothing out.
        Assert.Empty(matrix.LeaveOutAbsent);
        var left = matrix.Cells;
        Assert.Equal(all.Count - 7, left.Count);
        Assert.DoesNotContain(left, c => c.Storage.EndsWith("-r3", StringComparison.Ordinal) || c.Storage == "redis-sentinel");
        var quick = BenchMatrix.Build(catalogue, null, null, 0, false, quick: true, leaveOut: Load(true).LeftOutCells).Cells;
        Assert.Equal(BenchMatrix.Build(catalogue, null, null, 0, false, quick: true).Cells.Count - 3, quick.Count);
        Assert.DoesNotContain(quick, c => c.Storage.EndsWith("-r3", StringComparison.Ordinal) || c.Storage == "redis-sentinel");
    }

    [Fact]
    public void TheDefaultProfileAddsTheBrokersQueueReadsBesideTheirWrites()
    {
        // The fixture predates the brokers; the profile names them.
        var catalogue = CatalogueFixture.Entries
            .Concat(new[] { "rabbitmq", "nats-jetstream" }.Select(name => Architecture.Of(name, ["Queue"], [name], "broker")))
            .ToList();
        var matrix = BenchMatrix.Build(catalogue, null, null, 0, false, leaveOut: Load(false).LeftOutCells, alsoRun: Load(false).AddedCells);
        Assert.Empty(matrix.AlsoRunAbsent);
        foreach (var broker in new[] { "rabbitmq", "nats-jetstream" })
        {
            Assert.Contains(matrix.Cells, c => c.Storage == broker && c.Scenario == Scenario.QueueRead);
            Assert.Contains(matrix.Cells, c => c.Storage == broker && c.Scenario == Scenario.QueueWrite);
        }
        Assert.Equal(2, matrix.Cells.Count(c => c.Scenario == Scenario.QueueRead));
        Assert.Empty(Load(true).AddedCells);
        Assert.Contains("added to this default run beyond its scenarios (profile also_run): rabbitmq queue-read, nats-jetstream queue-read",
            BenchReport.Note(Load(false), new BenchOptions { ServiceDll = "s.dll", Root = "/r" }));
        Assert.DoesNotContain("also_run", BenchReport.Note(Load(false), new BenchOptions { ServiceDll = "s.dll", Root = "/r", Scenarios = ["queue-write"] }));
    }

    [Fact]
    public void TheNoteSaysHowTheRunWasMade()
    {
        var note = BenchReport.Note(Load(true), new BenchOptions { ServiceDll = "s.dll", Root = "/r", ClusterNodes = 3, Seed = 7 });
        Assert.Contains("10000 locations, 50000 items", note);
        Assert.Contains("ammo seed 7", note);
        Assert.Contains("then one repetition", note);
        Assert.Contains("node 0 of a 3-node sharded cluster", note);
        Assert.EndsWith("not a basis for conclusions", note);
        Assert.Contains("independent repetitions, interleaved", BenchReport.Note(Load(false), new BenchOptions { ServiceDll = "s.dll", Root = "/r" }));
        Assert.Contains("left out of this default run (profile leave_out; named with --storage or --scenario they run): postgres-redis-cache author-write", BenchReport.Note(Load(false), new BenchOptions { ServiceDll = "s.dll", Root = "/r" }));
        Assert.DoesNotContain("left out", BenchReport.Note(Load(false), new BenchOptions { ServiceDll = "s.dll", Root = "/r", Scenarios = ["queue-write"] }));
        Assert.Contains("left out of this quick run (profile leave_out; named with --storage or --scenario they run): nats-r3 queue-write", BenchReport.Note(Load(true), new BenchOptions { ServiceDll = "s.dll", Root = "/r" }));
        Assert.DoesNotContain("left out", BenchReport.Note(Load(false), new BenchOptions { ServiceDll = "s.dll", Root = "/r", ClusterNodes = 3 }));
        var isolated = BenchReport.Note(Load(false), new BenchOptions { Pin = true, Throttles = new Dictionary<string, double> { ["tarantool"] = 0.25 }, ServiceDll = "s.dll", Root = "/r" });
        Assert.Contains("--pin: the generator on the first core", isolated);
        Assert.Contains("tarantool held to 0.25 cores", isolated);
    }

    [Fact]
    public void TheRoundOrderIsShuffledBySeedAndRoundAndRepeatable()
    {
        var cells = Enumerable.Range(1, 12).ToList();
        var first = RoundOrder.Of(cells, 1, 1);
        Assert.Equal(first, RoundOrder.Of(cells, 1, 1));
        Assert.NotEqual(first, RoundOrder.Of(cells, 1, 2));
        Assert.NotEqual(first, RoundOrder.Of(cells, 2, 1));
        Assert.NotEqual(cells, first);
        Assert.Equal(cells, first.Order());
    }
}
