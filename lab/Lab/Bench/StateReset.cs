using System.Globalization;
using Harness;
using IntegrationService.Http;
using Harness.Processes;
using IntegrationService;
using Lab.Cluster;
using Lab.Report;
using Tank.Ammo;
using Tank.Cpu;

namespace Lab.Bench;

/// <summary>
/// Brings a cell back to the state every repetition starts from, and says what that took: a queue
/// emptied (IntegrationService purge-queue; a queue-read cell's then filled to queue_read_depth),
/// the servers settled (PostgreSQL VACUUM and CHECKPOINT, Tarantool snapshot), no Redis snapshot
/// or AOF rewrite in progress on the cell's Redis servers, then rest until the machine is idle:
/// below idle_cores of busy CPU over a second, at most rest_max_seconds.
/// </summary>
public sealed class StateReset(BenchContext context, BenchSteps steps)
{
    private static readonly TimeSpan Sample = TimeSpan.FromMilliseconds(250);

    public ResetRecord Run(BenchCell cell)
    {
        var profile = context.Profile;
        var done = new List<string>();
        var waitedFor = new List<string>();
        var started = Environment.TickCount64;
        if (cell.Scenario.Api() == StorageApi.Queue && cell.Nodes <= 1)
        {
            var purged = context.ServiceTool("purge-queue", "--queue", cell.Storage).Trim();
            done.Add("queue emptied");
            ToolLog.Write($"emptied the {cell.Storage} queue: {purged}");
            if (cell.Scenario == Scenario.QueueRead)
            {
                steps.FillQueue(cell.Storage, profile.QueueReadDepth);
                done.Add(string.Create(CultureInfo.InvariantCulture, $"queue filled to {profile.QueueReadDepth}"));
            }
        }
        if (profile.Settle)
        {
            steps.Settle(vacuum: context.Servers(cell.Storage).Contains("postgres"));
            done.Add("servers settled");
        }
        var deadline = started + Math.Max(profile.RestMaxSeconds, 0) * 1000L;
        foreach (var (redis, host, port) in new RedisForks(context).Nodes(cell.Storage))
        {
            var waited = WaitForRedis($"{redis}{(host == "127.0.0.1" ? "" : $" {host}")}", host, port, deadline);
            if (waited is not null) waitedFor.Add(waited);
        }
        var idle = HostCpu.WaitForIdle(profile.IdleCores, deadline, context.Cancel, out var busy);
        if (busy is not null) waitedFor.Add(busy);
        var seconds = Math.Round((Environment.TickCount64 - started) / 1000.0, 1);
        return new ResetRecord(done, seconds, waitedFor.Count == 0 ? "nothing" : string.Join("; ", waitedFor), idle);
    }

    // A snapshot's fork or an AOF rewrite started by the previous cell's writes.
    private string? WaitForRedis(string server, string host, int port, long deadline)
    {
        if (!ProcessRunner.OnPath("redis-cli")) return null;
        var start = Environment.TickCount64;
        while (true)
        {
            var info = ProcessRunner.Run("redis-cli", ["-h", host, "-p", port.ToString(CultureInfo.InvariantCulture), "info", "persistence"], context.Cancel);
            // Not read is said in the record, not taken for "nothing in progress".
            if (info.ExitCode != 0) return $"{server}'s persistence state, which could not be read ({(info.Error + info.Output).Trim().Split('\n')[0]})";
            var busy = info.Output.Contains("rdb_bgsave_in_progress:1", StringComparison.Ordinal) || info.Output.Contains("aof_rewrite_in_progress:1", StringComparison.Ordinal);
            if (!busy || Environment.TickCount64 >= deadline)
            {
                var waited = (Environment.TickCount64 - start) / 1000.0;
                return waited < 0.5 && !busy ? null : string.Create(CultureInfo.InvariantCulture, $"{server}'s snapshot or rewrite ({waited:0.#} s{(busy ? ", still running" : "")})");
            }
            context.Cancel.WaitHandle.WaitOne(Sample);
        }
    }
}
