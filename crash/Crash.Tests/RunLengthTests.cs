using System.Text.Json;
using Crash.Commands;
using Crash.Matrix;
using Crash.RunLengths;
using Harness.CommandLine;

namespace Crash.Tests;

/// <summary>
/// A fault run lasts until its fault could be over (the slowest restart of its targets, by
/// restart-budgets.json, or its stop time), p99 held back under the SLO for the window, and a margin;
/// a shorter --seconds is extended, and the plan, the log and the result say so.
/// </summary>
public sealed class RunLengthTests : IDisposable
{
    private static readonly string Catalogue = Path.Combine(AppContext.BaseDirectory, "Fixtures", "catalogue.json");
    private static readonly RestartBudgets Shipped = RestartBudgets.Load(RestartBudgets.DefaultPath);
    private readonly string _dir = Directory.CreateTempSubdirectory("crash-length-").FullName;

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    [Fact]
    public void ARunTooShortForTheSlowestRestartIsExtendedPastItAndTheHeldWindow()
    {
        var length = RunLength.For(20, 6, Shipped.ServersRestart(["tarantool"]));
        Assert.Equal(6 + Shipped.Servers["tarantool"] + 3 + RunLength.MarginSeconds, length.Seconds);
        Assert.True(length.Extended);
        Assert.Equal($"extended from --seconds 20 s: fault at 6 s + tarantool's restart budget {Shipped.Servers["tarantool"]} s + 3 s back under the SLO + 5 s margin = {length.Seconds} s",
            length.Source);
    }

    [Fact]
    public void ARunLongEnoughKeepsItsSecondsAndTheFaultStaysWhereTheyPutIt()
    {
        var length = RunLength.For(40, 13, Shipped.ServersRestart(["tarantool"]));
        Assert.Equal((40.0, 13.0, false), (length.Seconds, length.FaultAt, length.Extended));
        Assert.StartsWith("--seconds 40 s; it needs fault at 13 s + ", length.Source);
    }

    [Fact]
    public void AnExtendedRunEndsOnAWholeSecond() =>
        Assert.Equal(17, RunLength.For(10, 3, new FaultBudget(5.5, "x")).Seconds); // 3 + 5.5 + 3 + 5 = 16.5

    [Fact]
    public void EachFaultIsBudgetedByWhatBoundsIt()
    {
        var entry = CatalogueFixture.Entry("postgres-redis-persistent");
        FaultBudget Budget(string fault) => Faults.Find(fault)!.BudgetFor(entry, Shipped, stopSeconds: 5);
        // script/services up starts the servers one after the other: their budgets add up.
        Assert.Equal(Shipped.Servers["redis-persistent"] + Shipped.Servers["postgres"], Budget("db-kill").Seconds);
        Assert.Equal(Budget("db-kill"), Budget("power-loss"));
        Assert.Equal(new FaultBudget(5, "--stop-seconds 5 s"), Budget("db-stop"));
        Assert.Equal(Shipped.Service, Budget("service-kill").Seconds);
    }

    [Fact]
    public void AServerWithoutABudgetOfItsOwnGetsTheUnlistedOneAndSaysSo()
    {
        var budget = Shipped.ServersRestart(["etcd"]);
        Assert.Equal(Shipped.UnlistedServer, budget.Seconds);
        Assert.Contains("(unlisted)", budget.Why);
    }

    [Fact]
    public void EveryServerScriptServicesKnowsHasARestartBudget()
    {
        // script/lib.sh's ALL_SERVERS: the servers script/services starts, and so the fault targets a catalogue can name.
        var lib = File.ReadAllText(Path.Combine(Checkout(), "script", "lib.sh"));
        var line = lib.Split('\n').Single(l => l.StartsWith("ALL_SERVERS=(", StringComparison.Ordinal));
        var servers = line["ALL_SERVERS=(".Length..line.IndexOf(')', StringComparison.Ordinal)].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        Assert.NotEmpty(servers);
        Assert.All(servers, server => Assert.True(Shipped.Servers.ContainsKey(server), $"{server} has no budget in {RestartBudgets.FileName}"));
    }

    [Fact]
    public void AMalformedOrNonPositiveBudgetIsBadInputNamingTheFile()
    {
        var path = Path.Combine(_dir, "budgets.json");
        File.WriteAllText(path, "{\n  \"servers\": { \"postgres\": 5 },\n  oops\n}\n");
        Assert.StartsWith($"{path}: line 3: not valid restart budgets", Assert.Throws<InputException>(() => RestartBudgets.Load(path)).Message);
        File.WriteAllText(path, """{ "servers": { "postgres": 0 }, "unlisted_server": 15, "service": 4 }""");
        Assert.StartsWith($"{path}: postgres: a restart budget must be a positive number", Assert.Throws<InputException>(() => RestartBudgets.Load(path)).Message);
    }

    [Fact]
    public void TheMatrixPlanSaysWhichRunsItExtendedAndWhy()
    {
        var (code, output, _) = Matrix("--storage", "tarantool-memtx,postgres", "--kind", "kv", "--fault", "db-kill,db-stop");
        Assert.Equal(0, code);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).ToDictionary(l => l.Split('\t')[0], l => l.Split('\t')[3]);
        // An extended run may end early (2 s after p99 held back); one of --seconds as asked runs them all.
        Assert.StartsWith($"up to {6 + Shipped.Servers["tarantool"] + 8} s (extended from --seconds 20 s: fault at 6 s + tarantool's restart budget", lines["tarantool-memtx kv db-kill"]);
        Assert.EndsWith("; ends early once p99 held back)", lines["tarantool-memtx kv db-kill"]);
        Assert.Equal("20 s (--seconds 20 s; it needs fault at 6 s + --stop-seconds 5 s + 3 s back under the SLO + 5 s margin = 19 s)", lines["tarantool-memtx kv db-stop"]);

        (code, output, _) = Matrix("--storage", "tarantool-memtx", "--kind", "kv", "--fault", "db-kill", "--full-length");
        Assert.Equal(0, code);
        var full = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Single().Split('\t')[3];
        Assert.StartsWith($"{6 + Shipped.Servers["tarantool"] + 8} s (extended from --seconds 20 s: fault at 6 s + tarantool's restart budget", full);
        Assert.DoesNotContain("ends early", full);
    }

    [Fact]
    public void AWindowRowsFaultComesAfterTheWindowAndFiveSecondsOfWritesOlderThanIt()
    {
        var (code, output, _) = Matrix("--storage", "tarantool-memtx,redis-persistent", "--kind", "kv", "--fault", "power-loss,db-kill", "--quick");
        Assert.Equal(0, code);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).ToDictionary(l => l.Split('\t')[0], l => l.Split('\t')[3]);
        var tarantool = 35 + Shipped.Servers["tarantool"] + 8;
        Assert.Equal($"up to {tarantool} s (extended from --seconds 10 s: fault at 35 s (the 30 s window + 5 s of writes older than it) + tarantool's restart budget {Shipped.Servers["tarantool"]} s + 3 s back under the SLO + 5 s margin = {tarantool} s; ends early once p99 held back)",
            lines["tarantool-memtx kv power-loss"]);
        Assert.StartsWith("up to 18 s (extended from --seconds 10 s: fault at 6 s (the 1 s window + 5 s of writes older than it) + redis-persistent's", lines["redis-persistent kv power-loss"]);
        // processCrash: nothing: no window, the fault a third of the way in.
        Assert.StartsWith($"up to {3 + Shipped.Servers["tarantool"] + 8} s (extended from --seconds 10 s: fault at 3 s + ", lines["tarantool-memtx kv db-kill"]);
    }

    [Fact]
    public void AQueueWindowRowWaitsUntilItsConsumersHaveLeftMessagesOlderThanTheWindowOnTheQueue()
    {
        var runner = new MatrixRunner(Options() with { Seconds = 10 }, CatalogueFixture.Load());
        var row = MatrixPlan.Build(CatalogueFixture.Load(), ["redis-aof"], ["queue"], ["power-loss"]).Single();
        var options = runner.RunOptions(row, Path.Combine(_dir, "r.json"));
        Assert.Equal((12.0, 12 + Shipped.Servers["redis-aof"] + 8), (options.FaultAt, options.Seconds));
        Assert.Contains("fault at 12 s (the 1 s window + 5 s of writes older than it, ÷ 0.5 for a queue read at 0.5 of the write rate)", options.SecondsSource);
    }

    [Fact]
    public void AKillRowWaitsForTheKillsOwnWindowNotThePowerLosss()
    {
        // nats-jetstream's facts: a kill may lose its last second (written to the file shortly after the ack), a power loss two minutes.
        var aof = CatalogueFixture.Entry("redis-aof");
        var nats = aof with { Durability = aof.Durability with { ProcessCrash = "window", LossWindowMs = 120_000, ProcessCrashWindowMs = 1000 } };
        var catalogue = new Harness.Catalogue.StorageCatalogue([nats]);
        var runner = new MatrixRunner(Options() with { Seconds = 10 }, catalogue);
        var rows = MatrixPlan.Build(catalogue, ["redis-aof"], ["queue"], ["db-kill", "power-loss"]).ToDictionary(r => r.Fault.Name);
        Assert.Equal(12.0, runner.RunOptions(rows["db-kill"], Path.Combine(_dir, "k.json")).FaultAt);
        Assert.Equal(250.0, runner.RunOptions(rows["power-loss"], Path.Combine(_dir, "p.json")).FaultAt);
    }

    [Fact]
    public void ALongRunKeepsAWindowRowsFaultAThirdOfTheWayIn() =>
        Assert.Equal(40, RunLength.For(120, 40, Shipped.ServersRestart(["tarantool"])).AfterWindow(30_000, readShare: 0).FaultAt);

    [Fact]
    public void ABudgetFileOfTheUsersLengthensTheRunsItBudgets()
    {
        var path = Path.Combine(_dir, "budgets.json");
        File.WriteAllText(path, """{ "servers": { "postgres": 30 }, "unlisted_server": 15, "service": 4 }""");
        var (code, output, _) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--restart-budgets", path);
        Assert.Equal(0, code);
        Assert.Contains("\tup to 44 s (extended from --seconds 20 s: fault at 6 s + postgres's restart budget 30 s + 3 s", output);
    }

    [Fact]
    public void AClusterRunWhoseOutageOutlastedItsSecondsIsExtendedNotRefused()
    {
        // 10 s with a 5 s outage from 3 s was bad input ("the outage must end before the writes do").
        var output = new StringWriter();
        Assert.Equal(0, CrashCli.Run(["cluster", "--root", _dir, "--port", "19200", "--catalogue", Catalogue, "--out", _dir, "--storage", "tarantool-memtx",
            "--fault", "node-pause", "--seconds", "10", "--stop-seconds", "5", "--plan"], output, TextWriter.Null));
        Assert.Contains("\t16 s (extended from --seconds 10 s: fault at 3 s + --stop-seconds 5 s + 3 s back under the SLO + 5 s margin = 16 s)\t", output.ToString());
    }

    [Fact]
    public void TheResultRecordsTheLengthAsRunAsAskedAndWhy()
    {
        var runner = new MatrixRunner(Options(), CatalogueFixture.Load());
        var row = MatrixPlan.Build(CatalogueFixture.Load(), ["tarantool-memtx"], ["kv"], ["db-kill"]).Single();
        var options = runner.RunOptions(row, Path.Combine(_dir, "r.json"));
        Assert.Equal((6.0, 6 + Shipped.Servers["tarantool"] + 8, 20.0, Shipped.Servers["tarantool"]), (options.FaultAt, options.Seconds, options.RequestedSeconds!.Value, options.FaultBudgetS!.Value));

        var result = CrashResultBuilder.Build(new CrashRun(options, "r", DateTimeOffset.UnixEpoch, [], 0, 0, null, null, new Dictionary<string, KeyVerdict>()));
        result.Write(Path.Combine(_dir, "r.json"));
        var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(_dir, "r.json"))).RootElement;
        Assert.Equal(options.Seconds, json.GetProperty("seconds").GetDouble());
        Assert.Equal(20, json.GetProperty("requested_seconds").GetDouble());
        Assert.Equal(Shipped.Servers["tarantool"], json.GetProperty("fault_budget_s").GetDouble());
        Assert.StartsWith("extended from --seconds 20 s: fault at 6 s + tarantool's restart budget", json.GetProperty("seconds_source").GetString());
    }

    private MatrixOptions Options() => new()
    {
        Url = "http://127.0.0.1:19300", ServiceDir = _dir, Services = "script/services", Out = _dir, RestartBudgets = Shipped, BenchCatalogue = CatalogueFixture.Load(),
    };

    private (int Code, string Output, string Error) Matrix(params string[] args)
    {
        var (output, error) = (new StringWriter(), new StringWriter());
        var code = CrashCli.Run(["matrix", "--url", "http://127.0.0.1:19300", "--service-dir", _dir, "--services", "script/services", "--catalogue", Catalogue,
            "--out", Path.Combine(_dir, "out"), "--root", _dir, "--plan", .. args], output, error);
        return (code, output.ToString(), error.ToString());
    }

    /// <summary>The checkout these tests were built from: the first folder above them holding script/lib.sh.</summary>
    private static string Checkout()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "script", "lib.sh"))) return dir.FullName;
        throw new InvalidOperationException($"no script/lib.sh above {AppContext.BaseDirectory}");
    }
}
