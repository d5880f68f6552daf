using Tank.Commands;
using Harness.CommandLine;

namespace Lab.Tests.Commands;

/// <summary>
/// The command lines the scripts pass to tank and lab (same options, same value
/// formats, with typical values), so a change to the parser cannot break them unnoticed.
/// Parse only: nothing runs.
/// </summary>
public sealed class ScriptInvocationTests
{
    public static TheoryData<string[]> Invocations() =>
    [
        // script/bench: ammo (author reads with the id range of the prefill)
        ["ammo", "--scenario", "author-read", "--storage", "postgres", "--host", "127.0.0.1:18080", "--count", "100000",
            "--seed", "1", "--items", "500000", "--locations", "100000", "--out", "reports/20260101T000000Z/ammo.txt", "--author-ids", "1001-3000"],
        // script/bench: shoot for the prefill, the probe and the cross-check's warm-up
        ["run", "tank/load.yaml", "--ammo", "work/prefill.ammo", "--address", "127.0.0.1:18080",
            "--schedule", "line(1, 2000, 10s)", "--out", "work/prefill", "--quiet"],
        ["run", "tank/load.yaml", "--ammo", "reports/20260101T000000Z/ammo.txt", "--address", "127.0.0.1:18080",
            "--schedule", "const(64, 15s)", "--out", "work/probe", "--load-type", "instances", "--instances", "64", "--quiet"],
        // script/bench: the measured run
        ["run", "tank/load.yaml", "--ammo", "reports/20260101T000000Z/ammo.txt", "--address", "127.0.0.1:18080",
            "--schedule", "line(1, 4500, 60s)", "--out", "reports/20260101T000000Z/runs/postgres/author-read", "--warmup", "line(1, 3000, 20s)",
            "--storage", "postgres", "--scenario", "author-read", "--durability", "synchronous_commit=on, fsync=on",
            "--cpu", "service=4242", "--cpu", "postgresql=77", "--cpu", "redis-cache=78", "--quiet"],
        // script/bench: the cross-check's closed-model run (a durability jq found nothing for is empty)
        ["run", "tank/load.yaml", "--ammo", "reports/20260101T000000Z/crosscheck/postgres-redis-persistent/ammo.txt", "--address", "127.0.0.1:18080",
            "--schedule", "const(64, 1s) const(0, 9s)", "--out", "reports/20260101T000000Z/crosscheck/postgres-redis-persistent/tank", "--load-type", "instances", "--instances", "64",
            "--storage", "postgres-redis-persistent", "--scenario", "item-read", "--durability", "", "--cpu", "service=4242", "--quiet"],
        // script/bench: everything after the servers are up and the builds done
        ["bench", "--quick", "--storage", "postgres", "--scenario", "author-read,queue-read", "--slo-ms", "10", "--seed", "1", "--crosscheck", "--cluster", "3",
            "--service-dll", "/repo/IntegrationService/bin/Release/net10.0/IntegrationService.dll", "--root", "/repo", "--port", "18080", "--cluster-port", "18180"],
        // lab bench's cluster phase, through script/cluster
        ["cluster", "up", "--nodes", "3", "--storage", "tarantool-memtx", "--port", "18180", "--root", "/repo"],
        ["cluster", "pids", "--root", "/repo"],
        ["cluster", "down", "--root", "/repo"],
        ["capacity", "work/probe"],
        ["env", "reports/20260101T000000Z", "--server", "postgresql=16.4", "--server", "tarantool=3.2.1-0-g1d2c6d3", "--server", ".net=10.0.100",
            "--durability", "postgres=synchronous_commit=on", "--durability", "redis-cache=none (a cache)",
            "--note", "data set: 100000 locations, 500000 items (seed 42); ammo seed 1; each run: closed-model probe (64 instances)"],
        ["report", "reports/20260101T000000Z", "--slo-ms", "10"],
        // tank/configs/shootexec.yaml (real Tank driving this runner)
        ["run", "configs/author-read.yaml", "--out", ".", "--quiet"],
    ];

    [Theory]
    [MemberData(nameof(Invocations))]
    public void TheScriptsCommandLinesParse(string[] args) => Assert.Empty(Tools.Parse(args).Errors);

}
