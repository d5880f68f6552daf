using System.Globalization;
using System.Text.Json;
using Lab.Report;
using Tank.Ammo;

namespace Lab.Tests.Compare;

/// <summary>Report folders holding a hand-written summary.json, in lab report's format.</summary>
public sealed class SummaryFixture : IDisposable
{
    public string Root { get; } = Directory.CreateTempSubdirectory("tank-compare-").FullName;

    public void Dispose() => Directory.Delete(Root, recursive: true);

    /// <summary>The CPU model the next reports' environment.machine names.</summary>
    public string MachineCpu { get; set; } = "test cpu";

    public sealed record Cell(string Storage, string Scenario, double Rps, double P99Ms, double? CpuUs = 50, bool HeldAtPeak = false,
        double? ConfirmedRps = null, double[]? Repeats = null, double[]? Spread = null, double[]? RampRepeats = null, double[]? Interval = null, string? UnstableBecause = null,
        bool[]? Held = null, double ErrorRate = 0);

    /// <summary>A folder <paramref name="name"/> with summary.json of these cells.</summary>
    public string Report(string name, double sloMs, params Cell[] cells)
    {
        var dir = Path.Combine(Root, name);
        Directory.CreateDirectory(dir);
        var runs = cells.Select(c =>
        {
            var run = new Dictionary<string, object?>
            {
                ["storage"] = c.Storage,
                ["scenario"] = c.Scenario,
                ["quantiles_ms"] = new Dictionary<string, double> { ["p50"] = c.P99Ms / 3, ["p99"] = c.P99Ms },
                ["error_rate"] = c.ErrorRate,
                ["max_sustained_rps"] = c.Rps,
                ["slo_held_at_peak"] = c.HeldAtPeak,
                ["cpu"] = c.CpuUs is { } us
                    ? new object[] { new { process = "service", pid = 1, cpu_seconds = 1.0, us_per_request = us * 0.6 }, new { process = "postgres", pid = 2, cpu_seconds = 1.0, us_per_request = us * 0.4 }, new { process = "tank", pid = 3, cpu_seconds = 9.0, us_per_request = 999.0 } }
                    : Array.Empty<object>(),
            };
            if (c.ConfirmedRps is { } confirmed) run["confirmed_rps"] = confirmed;
            // As lab report writes them: a searched cell's repeats are confirmed rates, a ramp-only cell's max rps @ SLO.
            if (c.Repeats is { } repeats)
                run["repeats"] = c.ConfirmedRps is null ? repeats.Select(r => (object)new { max_sustained_rps = r }).ToArray()
                    : c.Held is { } held ? repeats.Select((r, i) => (object)new { rps = r, confirmed = held[i] }).ToArray()
                    : repeats.Select(r => (object)new { confirmed_rps = r }).ToArray();
            if (c.Interval is { } interval) run["interval"] = new { low = interval[0], high = interval[1], coverage = 0.9375, method = "min-max" };
            if (c.UnstableBecause is { } because)
            {
                run["unstable"] = true;
                run["unstable_because"] = new[] { because };
            }
            if (c.Spread is { } spread)
                run["spread"] = c.ConfirmedRps is null ? new { min = spread[0], max = spread[1] } : new { confirmed_rps = new { min = spread[0], max = spread[1] } };
            // Reports before the confirmed repetitions repeated the ramps beside a confirmed rate.
            if (c.RampRepeats is { } ramps)
            {
                run["repeats"] = ramps.Select(r => new { max_sustained_rps = r }).ToArray();
                run["spread"] = new { min = ramps.Min(), max = ramps.Max() };
            }
            return run;
        });
        var summary = new Dictionary<string, object?>
        {
            ["generated_at"] = "2026-11-25T12:00:00+00:00",
            ["slo_ms"] = sloMs,
            ["environment"] = new { machine = new { cores = 2, cpu = MachineCpu }, build = "abc1234" },
            ["warnings"] = Array.Empty<string>(),
            ["runs"] = runs,
        };
        File.WriteAllText(Path.Combine(dir, "summary.json"), JsonSerializer.Serialize(summary, new JsonSerializerOptions { WriteIndented = true }));
        return dir;
    }

    public string Raw(string name, string summaryJson)
    {
        var dir = Path.Combine(Root, name);
        Directory.CreateDirectory(dir);
        File.WriteAllText(Path.Combine(dir, "summary.json"), summaryJson);
        return dir;
    }

    public static string N(double value) => value.ToString(CultureInfo.InvariantCulture);
}
