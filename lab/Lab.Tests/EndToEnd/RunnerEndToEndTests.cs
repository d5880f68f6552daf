using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Tank.Commands;
using Tank.SelfTest;
using Harness.CommandLine;

namespace Lab.Tests.EndToEnd;

/// <summary>Runs the real command lines (tank ammo → tank run → lab env → lab report) against a loopback responder.</summary>
public sealed class RunnerEndToEndTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("tank-e2e-").FullName;

    /// <summary>The runner's commands go to tank, the rest to the lab, as a user types them.</summary>
    private static int Run(string[] args) => args[0] is "ammo" or "run" or "serve" ? TankCli.Run(args) : Lab.Commands.LabCli.Run(args);

    private string Yaml(int port, string schedule, string timeout = "5s", string extra = "") 
    {
        var path = Path.Combine(_dir, "load.yaml");
        File.WriteAllText(path, $"""
            phantom:
              address: 127.0.0.1:{port}
              ammofile: {Path.Combine(_dir, "ammo.txt")}
              ammo_type: phantom
              header_http: "1.1"
              instances: 50
              timeout: {timeout}
              load_profile:
                load_type: rps
                schedule: {schedule}
            {extra}
            telegraf:
              enabled: false
            """);
        return path;
    }

    private void Ammo(int port, string scenario = "author-read") =>
        Assert.Equal(0, Run(["ammo", "--scenario", scenario, "--storage", "postgres", "--host", $"127.0.0.1:{port}",
            "--count", "40", "--seed", "3", "--out", Path.Combine(_dir, "ammo.txt")]));

    [Fact]
    public async Task AClosedModelRunEndsWithItsScheduleInsteadOfLoopingThroughTheDrain()
    {
        await using var server = new TrivialHttpServer();
        Ammo(server.Port);
        var outDir = Path.Combine(_dir, "closed");
        Assert.Equal(0, Run(["run", Yaml(server.Port, "const(1, 1s)", timeout: "5s"), "--load-type", "instances", "--instances", "4",
            "--schedule", "const(4, 1s) const(0, 1s)", "--out", outDir, "--quiet"]));
        var meta = JsonDocument.Parse(File.ReadAllText(Path.Combine(outDir, "meta.json"))).RootElement;
        var start = meta.GetProperty("start").GetDateTimeOffset().ToUnixTimeMilliseconds();
        // No request may leave after the 2-second schedule (the drain allows 5.5 s more).
        var lastSendMs = File.ReadAllLines(Path.Combine(outDir, "phout.log")).Max(l => (long)(double.Parse(l.Split('\t')[0], System.Globalization.CultureInfo.InvariantCulture) * 1000));
        Assert.InRange(lastSendMs - start, 0, 2_000 + 250);
    }

    [Fact]
    public async Task AClosedModelRunWithFiniteAmmoEndsWhenTheAmmoIsUsedUpNotWithItsLongSchedule()
    {
        await using var server = new TrivialHttpServer();
        Ammo(server.Port);
        var outDir = Path.Combine(_dir, "once");
        var yaml = Yaml(server.Port, "const(1, 1s)");
        File.WriteAllText(yaml, File.ReadAllText(yaml).Replace("  instances: 50\n", "  instances: 50\n  loop: 1\n"));
        var clock = System.Diagnostics.Stopwatch.StartNew();
        Assert.Equal(0, Run(["run", yaml, "--load-type", "instances", "--instances", "4",
            "--schedule", "const(4, 600s)", "--out", outDir, "--quiet"]));
        Assert.Equal(40, File.ReadAllLines(Path.Combine(outDir, "phout.log")).Length);
        Assert.Equal(40, File.ReadAllLines(Path.Combine(outDir, "lateness.log")).Length); // one lateness per phout line
        // Ten minutes of schedule; the 40 requests of the one pass take well under a second here.
        Assert.InRange(clock.Elapsed.TotalSeconds, 0, 60);
    }

    [Fact]
    public async Task ARunWhoseOutcomeIsDecidedEndsThereWithTheReasonAndExitCodeZero()
    {
        await using var server = new TrivialHttpServer();
        Ammo(server.Port);
        var result = Lab.Bench.Shooter.Fire(new Lab.Bench.Shot
        {
            Config = Yaml(server.Port, "const(1, 1s)"), AmmoFile = Path.Combine(_dir, "ammo.txt"), Address = $"127.0.0.1:{server.Port}",
            OutDir = Path.Combine(_dir, "decided"), Schedule = "const(50, 60s)",
            DecidedWhen = m => m.Responses >= 20 ? "twenty answers" : null,
        }, CancellationToken.None);
        Assert.Equal(0, result.ExitCode);
        Assert.Equal("twenty answers", result.Decided);
        Assert.InRange(result.Sent, 20, 50 * 5); // 3 000 planned; asked once a second, so it stops within a few seconds' sends
        Assert.Equal(3000, result.Planned);
    }

    [Fact]
    public async Task AWarmUpIsNotRecordedAndEveryNamedProcessAndTankItselfGetCpuFigures()
    {
        await using var server = new TrivialHttpServer();
        Ammo(server.Port);
        var outDir = Path.Combine(_dir, "warm");
        Assert.Equal(0, Run(["run", Yaml(server.Port, "const(20, 1s)"), "--warmup", "const(30, 1s)", "--out", outDir, "--quiet",
            "--cpu", $"me={Environment.ProcessId}"]));
        Assert.Equal(20, File.ReadAllLines(Path.Combine(outDir, "phout.log")).Length);
        Assert.Equal(50, server.Requests);
        var meta = JsonDocument.Parse(File.ReadAllText(Path.Combine(outDir, "meta.json"))).RootElement;
        Assert.Equal("const(30, 1s)", meta.GetProperty("warmup_schedule").GetString());
        Assert.Equal(30, meta.GetProperty("warmup_responses").GetInt64());
        if (!File.Exists("/proc/self/stat")) return;
        Assert.Equal(["tank", "me"], meta.GetProperty("cpu").EnumerateArray().Select(c => c.GetProperty("name").GetString()));
        Assert.True(meta.GetProperty("cpu_wall_seconds").GetDouble() >= 1);
    }

    [Fact]
    public async Task RunWritesPhoutAndReportSummarisesIt()
    {
        await using var server = new TrivialHttpServer();
        Ammo(server.Port);
        var runDir = Path.Combine(_dir, "bench");
        var outDir = Path.Combine(runDir, "runs", "postgres", "author-read");
        var code = Run(["run", Yaml(server.Port, "line(10, 50, 2s) const(50, 2s)"), "--out", outDir,
            "--storage", "postgres", "--scenario", "author-read", "--durability", "synchronous_commit=on", "--quiet"]);

        Assert.Equal(0, code);
        var planned = (10 + 50) / 2 * 2 + 100;
        var lines = File.ReadAllLines(Path.Combine(outDir, "phout.log"));
        Assert.Equal(planned, lines.Length);
        Assert.Equal(planned, server.Requests);
        var ammoSizes = Tank.Ammo.AmmoReader.Read(Path.Combine(_dir, "ammo.txt"), Tank.Ammo.AmmoFormat.Phantom).Select(r => (long)r.Bytes.Length).ToHashSet();
        foreach (var fields in lines.Select(l => l.Split('\t')))
        {
            Assert.Equal(12, fields.Length);
            Assert.Matches(@"^\d{10}\.\d{3}$", fields[0]);
            Assert.Equal("author-read", fields[1]);
            Assert.Equal(long.Parse(fields[2]), fields[3..7].Sum(long.Parse));
            Assert.Contains(long.Parse(fields[8]), ammoSizes);
            Assert.Equal("0", fields[10]);
            Assert.Equal("200", fields[11]);
        }
        var sendTimes = lines.Select(l => double.Parse(l.Split('\t')[0], System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.InRange(sendTimes.Max() - sendTimes.Min(), 3.0, 6.0); // the schedule spans 4 s; the last request leaves near 4 s
        Assert.NotEmpty(File.ReadAllLines(Path.Combine(outDir, "stats.log")));
        using var meta = JsonDocument.Parse(File.ReadAllText(Path.Combine(outDir, "meta.json")));
        Assert.Equal(planned, meta.RootElement.GetProperty("planned_requests").GetInt64());
        Assert.Equal("synchronous_commit=on", meta.RootElement.GetProperty("durability").GetString());

        Assert.Equal(0, Run(["env", runDir, "--server", "postgres=PostgreSQL 15", "--durability", "postgres=synchronous_commit=on"]));
        Assert.Equal(0, Run(["report", runDir, "--slo-ms", "10"]));
        var report = File.ReadAllText(Path.Combine(runDir, "report.md"));
        Assert.Contains("| postgres | author-read | 160 |", report);
        Assert.Contains("charts/postgres-author-read.svg", report);
        var html = File.ReadAllText(Path.Combine(runDir, "report.html"));
        Assert.Contains("<svg", html);
        Assert.DoesNotContain("src=\"http", html);
        Assert.True(File.Exists(Path.Combine(runDir, "charts", "comparison.svg")));
        using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(runDir, "summary.json")));
        var run = summary.RootElement.GetProperty("runs").EnumerateArray().Single();
        Assert.Equal(planned, run.GetProperty("requests").GetInt64());
        Assert.Equal(0, run.GetProperty("errors").GetInt64());
    }

    [Fact]
    public void SilentServerTimesOutWithNetCode110()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var accepted = new List<Socket>();
        var accept = Task.Run(async () => { while (true) accepted.Add(await listener.AcceptSocketAsync()); });
        Ammo(port);
        var outDir = Path.Combine(_dir, "timeout");
        // --quiet takes no value: the config after it is the config (it once became --quiet's value).
        Assert.Equal(0, Run(["run", "--quiet", Yaml(port, "const(2, 1s)", timeout: "1s"), "--out", outDir]));
        var fields = File.ReadAllLines(Path.Combine(outDir, "phout.log")).Select(l => l.Split('\t')).ToList();
        Assert.Equal(2, fields.Count);
        Assert.All(fields, f => Assert.Equal(("110", "0", "1000000"), (f[10], f[11], f[7])));
        foreach (var socket in accepted.ToArray()) socket.Dispose();
    }

    [Fact]
    public async Task AutostopEndsTheRunWithTanksExitCode()
    {
        await using var server = new TrivialHttpServer();
        Ammo(server.Port);
        var yaml = Yaml(server.Port, "const(20, 30s)", extra: "autostop:\n  autostop:\n    - http(2xx,50%,2s)");
        var started = DateTime.UtcNow;
        Assert.Equal(22, Run(["run", yaml, "--out", Path.Combine(_dir, "stopped"), "--quiet"]));
        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(20), "autostop should end the 30 s run early");
    }

    [Theory]
    [InlineData("const(10, 1s), const(10, 1s)", "not commas")]
    [InlineData("const(10, 500ms)", "'500ms' is not a duration")]
    public void BadScheduleFailsBeforeAnythingIsWritten(string schedule, string reason)
    {
        var outDir = Path.Combine(_dir, "never");
        var error = new StringWriter();
        var previous = Console.Error;
        Console.SetError(error);
        try { Assert.Equal(2, Run(["run", Yaml(1, schedule), "--out", outDir])); }
        finally { Console.SetError(previous); }
        Assert.Contains(reason, error.ToString());
        Assert.Contains("load.yaml:10", error.ToString());
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public void EmptyAmmoFailsBeforeAnythingIsWritten()
    {
        File.WriteAllText(Path.Combine(_dir, "ammo.txt"), "");
        var outDir = Path.Combine(_dir, "never");
        Assert.Equal(2, Run(["run", Yaml(1, "const(1, 1s)"), "--out", outDir]));
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public void UnknownKeyFailsBeforeAnythingIsWritten()
    {
        var yaml = Yaml(1, "const(1, 1s)");
        File.WriteAllText(yaml, File.ReadAllText(yaml).Replace("  instances: 50", "  instance: 50"));
        var outDir = Path.Combine(_dir, "never");
        Assert.Equal(2, Run(["run", yaml, "--out", outDir]));
        Assert.False(Directory.Exists(outDir));
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);
}
