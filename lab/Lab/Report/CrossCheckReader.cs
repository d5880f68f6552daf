using System.Text.Json;
using Harness.CommandLine;
using Tank.Ammo;
using Tank.Runner;

namespace Lab.Report;

/// <summary>
/// Reads <c>crosscheck/&lt;storage&gt;/</c> as script/bench --crosscheck writes it: <c>wrk.json</c>
/// (wrk's side, written by the script) and <c>tank/phout.log</c> with <c>meta.json</c> (our runner's closed-model run).
/// </summary>
public static class CrossCheckReader
{
    private static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower };

    private sealed record WrkSide(string Storage, string Scenario, string Endpoint, int Connections, double DurationS,
        long Requests, double Rps, double CpuSeconds, string? Command);

    public static IReadOnlyList<CrossCheck> Read(string directory)
    {
        var root = Path.Combine(directory, "crosscheck");
        if (!Directory.Exists(root)) return [];
        var result = new List<CrossCheck>();
        foreach (var wrkPath in Directory.GetFiles(root, "wrk.json", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            WrkSide wrk;
            try { wrk = JsonSerializer.Deserialize<WrkSide>(File.ReadAllText(wrkPath), Json) ?? throw new JsonException("empty"); }
            catch (JsonException e) { throw new InputException(wrkPath, $"line {(e.LineNumber ?? 0) + 1}", $"not valid JSON: {e.Message}"); }
            var tankDir = Path.Combine(Path.GetDirectoryName(wrkPath)!, "tank");
            var meta = RunMeta.TryRead(Path.Combine(tankDir, "meta.json"));
            var tank = PhoutAnalyzer.Analyze(Path.Combine(tankDir, "phout.log"), wrk.Storage, wrk.Scenario, meta, sloMs: 10);
            result.Add(new CrossCheck(wrk.Storage, wrk.Scenario, wrk.Endpoint, wrk.Connections, wrk.DurationS,
                wrk.Rps, wrk.CpuSeconds, wrk.Requests, CapacityEstimate.Of(tank.Seconds),
                tank.Cpu.FirstOrDefault(c => c.Name == "tank")?.Seconds ?? 0, tank.Requests, wrk.Command)
            { Rate = ReadRate(Path.Combine(Path.GetDirectoryName(wrkPath)!, "rate.json")) });
        }
        return result;
    }

    private static RateCheck? ReadRate(string path)
    {
        if (!File.Exists(path)) return null;
        try { return JsonSerializer.Deserialize<RateCheck>(File.ReadAllText(path), Json) ?? throw new JsonException("empty"); }
        catch (JsonException e) { throw new InputException(path, $"line {(e.LineNumber ?? 0) + 1}", $"not valid JSON: {e.Message}"); }
    }

    public static void WriteRate(string directory, RateCheck check) =>
        File.WriteAllText(Path.Combine(directory, "rate.json"), JsonSerializer.Serialize(check, new JsonSerializerOptions(Json) { WriteIndented = true }) + "\n");
}
