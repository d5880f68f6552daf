using System.Globalization;
using System.Text;
using Tank.Cpu;
using Lab.Report;
using Tank.Ammo;
using Tank.Runner;

namespace Lab.Tests.Report;

/// <summary>Writes run directories as script/bench lays them out, for report tests.</summary>
public sealed class RunDirectory : IDisposable
{
    public const long StartUnixSeconds = 1_700_000_000;

    public string Path { get; } = Directory.CreateTempSubdirectory("tank-report-").FullName;

    public void Dispose() => Directory.Delete(Path, recursive: true);

    public string Read(string file) => File.ReadAllText(System.IO.Path.Combine(Path, file));

    /// <summary>
    /// One run: <paramref name="latencyMsAt"/> gives each second's latency; <paramref name="rpsAt"/> its rate;
    /// <paramref name="httpAt"/> its HTTP code (200 by default). Requests leave evenly within each second.
    /// </summary>
    public string Run(string storage, string scenario, int seconds, Func<int, int> rpsAt, Func<int, double> latencyMsAt,
        string? schedule = null, IReadOnlyList<CpuUsage>? cpu = null, string under = "runs", Func<int, int>? httpAt = null, int nodes = 0)
    {
        var dir = System.IO.Path.Combine(Path, under, nodes > 1 ? $"{storage}-x{nodes}" : storage, scenario);
        Directory.CreateDirectory(dir);
        var phout = new StringBuilder();
        for (var s = 0; s < seconds; s++)
        {
            var rps = rpsAt(s);
            var us = (long)(latencyMsAt(s) * 1000);
            var http = httpAt?.Invoke(s) ?? 200;
            for (var i = 0; i < rps; i++)
            {
                // Sent early enough in the second that the answer completes within it.
                var ms = (long)(i * (1000.0 - us / 1000.0 - 1) / rps);
                phout.Append(CultureInfo.InvariantCulture, $"{StartUnixSeconds + s}.{Math.Max(0, ms):000}\t{scenario}\t{us}\t10\t10\t{us - 30}\t10\t{us}\t100\t200\t0\t{http}\n");
            }
        }
        File.WriteAllText(System.IO.Path.Combine(dir, "phout.log"), phout.ToString());
        new RunMeta
        {
            Storage = storage,
            Scenario = scenario,
            Schedule = schedule,
            LoadType = schedule is null ? "instances" : "rps",
            Start = DateTimeOffset.FromUnixTimeSeconds(StartUnixSeconds),
            Cpu = cpu ?? [],
            CpuWallSeconds = seconds,
            Cores = 2,
            Nodes = nodes,
        }.Write(System.IO.Path.Combine(dir, "meta.json"));
        return dir;
    }
}
