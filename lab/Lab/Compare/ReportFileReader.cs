using System.Text.Json;
using Harness.CommandLine;
using Lab.Report;
using Tank.Ammo;

namespace Lab.Compare;

/// <summary>
/// Reads summary.json as <c>lab report</c> writes it: <c>slo_ms</c> and <c>runs[]</c> with
/// storage, scenario, max_sustained_rps, slo_held_at_peak, quantiles_ms.p99, error_rate and cpu[].
/// Repeated runs, when the report has them, are used instead: <c>confirmed_rps</c> (the median of
/// the repetitions' confirmed rates) as the capacity, with <c>repeats[].confirmed_rps</c> or
/// <c>spread.confirmed_rps</c> as its min–max (a confirmed capacity takes no other spread: ramps'
/// figures are not confirmations); without a confirmed rate, <c>repeats</c> (numbers, or objects
/// with a rate and optionally a p99 and CPU per request) and <c>spread</c> (<c>{min, max}</c> or
/// <c>[min, max]</c>) of max rps @ SLO.
/// Today's fields missing or of the wrong type are bad input naming the file and the field; the
/// repeated-run fields in a shape not recognised are left out.
/// </summary>
public static class ReportFileReader
{
    /// <summary>A report folder (with summary.json) or a summary.json itself.</summary>
    public static ReportFile Read(string folderOrFile)
    {
        var path = Directory.Exists(folderOrFile) ? System.IO.Path.Combine(folderOrFile, "summary.json") : folderOrFile;
        if (!File.Exists(path))
            throw new InputException(path, "file", Directory.Exists(folderOrFile) ? "no summary.json in the report folder (run lab report first)" : "no such report folder or file");
        using var document = Parse(path);
        var root = document.RootElement;
        if (root.ValueKind != JsonValueKind.Object) throw Bad(path, "the top level", "is not an object");
        var slo = Number(root, "slo_ms", path, "the top level") ?? throw Bad(path, "slo_ms", "is missing");
        if (!root.TryGetProperty("runs", out var runs) || runs.ValueKind != JsonValueKind.Array) throw Bad(path, "runs", "is missing or not an array");
        var cells = runs.EnumerateArray().Select((run, i) => Cell(run, path, $"runs[{i}]")).ToList();
        var generated = root.TryGetProperty("generated_at", out var g) && g.ValueKind == JsonValueKind.String ? g.GetString() : null;
        JsonElement? environment = root.TryGetProperty("environment", out var env) && env.ValueKind == JsonValueKind.Object ? env.Clone() : null;
        return new ReportFile(path, slo, generated, environment, cells);
    }

    /// <summary>Parses a JSON file; malformed JSON is bad input naming the file, line and byte.</summary>
    public static JsonDocument Parse(string path)
    {
        try
        {
            return JsonDocument.Parse(File.ReadAllBytes(path));
        }
        catch (JsonException e)
        {
            throw new InputException(path, $"line {(e.LineNumber ?? 0) + 1}, byte {(e.BytePositionInLine ?? 0) + 1}", $"not valid JSON: {e.Message}");
        }
    }

    private static CellFigures Cell(JsonElement run, string path, string where)
    {
        if (run.ValueKind != JsonValueKind.Object) throw Bad(path, where, "is not an object");
        var storage = Text(run, "storage", path, where);
        var scenario = Text(run, "scenario", path, where);
        var sustained = Number(run, "max_sustained_rps", path, where) ?? throw Bad(path, $"{where}.max_sustained_rps", "is missing");
        var confirmed = Number(run, "confirmed_rps", path, where);
        var rampP99 = run.TryGetProperty("quantiles_ms", out var q) && q.ValueKind == JsonValueKind.Object
            ? Number(q, "p99", path, $"{where}.quantiles_ms") ?? throw Bad(path, $"{where}.quantiles_ms.p99", "is missing")
            : throw Bad(path, $"{where}.quantiles_ms", "is missing");
        // A confirmed cell's p99 is its confirming holds' (at the rate it is judged by), not the
        // ramp's, which passes the knee on purpose.
        var p99 = (confirmed is > 0 ? Number(run, "confirmed_p99_ms", path, where) : null) ?? rampP99;
        var repeats = Repeats(run, path, where, confirmed is not null);
        var capacity = confirmed ?? sustained;
        // The bench's interval of the median when the report has one; else the repetitions' min–max.
        var capacitySpread = IntervalField(run) ?? SpreadField(run, confirmed is not null) ?? Spread.Of(repeats.Select(r => r.Rps).OfType<double>().ToList());
        var p99Spread = Spread.Of(repeats.Select(r => r.P99Ms).OfType<double>().ToList());
        // A confirmed cell's CPU per request is the confirming holds' (at the rate judged), else the ramp's.
        var cpu = (confirmed is null ? null : Number(run, "confirmed_cpu_us_per_request", path, where)) ?? Cpu(run, path, where);
        var cpuSpread = Spread.Of(repeats.Select(r => r.CpuUs).OfType<double>().ToList());
        return new CellFigures
        {
            Storage = storage,
            Scenario = scenario,
            Capacity = new Figure(capacity, Widen(capacitySpread, capacity)),
            Confirmed = confirmed is not null,
            // A confirmed capacity is a lower bound only when no hold of its search failed; the ramp's top says nothing about it.
            LowerBound = run.TryGetProperty(confirmed is null ? "slo_held_at_peak" : "confirmed_lower_bound", out var held) && held.ValueKind == JsonValueKind.True,
            P99Ms = new Figure(p99, Widen(p99Spread, p99)),
            CpuUsPerRequest = cpu is { } c ? new Figure(c, Widen(cpuSpread, c)) : null,
            ErrorRate = Number(run, "error_rate", path, where) ?? 0,
            Unstable = run.TryGetProperty("unstable", out var unstable) && unstable.ValueKind == JsonValueKind.True,
            UnstableBecause = run.TryGetProperty("unstable_because", out var because) && because.ValueKind == JsonValueKind.Array
                ? because.EnumerateArray().Where(b => b.ValueKind == JsonValueKind.String).Select(b => b.GetString()!).ToList()
                : [],
            Repetitions = confirmed is null ? 0 : RepeatObjects(run).Count(),
            HeldRepetitions = confirmed is null ? 0 : RepeatObjects(run).Count(r => r.TryGetProperty("confirmed", out var c) && c.ValueKind == JsonValueKind.True),
        };
    }

    private static IEnumerable<JsonElement> RepeatObjects(JsonElement run) =>
        run.TryGetProperty("repeats", out var repeats) && repeats.ValueKind == JsonValueKind.Array
            ? repeats.EnumerateArray().Where(r => r.ValueKind == JsonValueKind.Object && r.TryGetProperty("confirmed", out _))
            : [];

    /// <summary><c>interval</c> of the capacity: <c>{low, high}</c>; null when absent or of another shape.</summary>
    private static Spread? IntervalField(JsonElement run) =>
        run.TryGetProperty("interval", out var interval) && interval.ValueKind == JsonValueKind.Object
        && interval.TryGetProperty("low", out var low) && interval.TryGetProperty("high", out var high)
        && low.ValueKind == JsonValueKind.Number && high.ValueKind == JsonValueKind.Number
            ? new Spread(low.GetDouble(), high.GetDouble())
            : null;

    /// <summary>The figure compared always lies inside its own spread.</summary>
    public static Spread Widen(Spread? spread, double value) =>
        spread is { } s ? new Spread(Math.Min(s.Min, value), Math.Max(s.Max, value)) : Spread.Of(value);

    private static double? Cpu(JsonElement run, string path, string where)
    {
        if (!run.TryGetProperty("cpu", out var cpu) || cpu.ValueKind != JsonValueKind.Array) return null;
        var servers = cpu.EnumerateArray()
            .Where(p => p.ValueKind == JsonValueKind.Object && !(p.TryGetProperty("process", out var name) && name.ValueKind == JsonValueKind.String && name.GetString() == "tank"))
            .Select((p, i) => Number(p, "us_per_request", path, $"{where}.cpu[{i}]") ?? 0)
            .ToList();
        return servers.Count == 0 ? null : servers.Sum();
    }

    // The repeated-run fields are another tool's, still settling: shapes not recognised are left
    // out (the single-run figures remain), so a newer report never fails an older compare.
    // With a confirmed capacity only confirmed repeats count: older reports repeated the ramps, whose
    // "max rps @ SLO" (0 in a bad second) is no spread of a confirmed rate.
    private static List<(double? Rps, double? P99Ms, double? CpuUs)> Repeats(JsonElement run, string path, string where, bool confirmed)
    {
        if (!run.TryGetProperty("repeats", out var repeats) || repeats.ValueKind != JsonValueKind.Array) return [];
        return repeats.EnumerateArray().Select((r, i) =>
        {
            var at = $"{where}.repeats[{i}]";
            if (r.ValueKind == JsonValueKind.Number) return (confirmed ? null : r.GetDouble(), (double?)null, (double?)null);
            if (r.ValueKind != JsonValueKind.Object) return (null, null, null);
            var rps = Number(r, "rps", path, at) ?? Number(r, "confirmed_rps", path, at) ?? (confirmed ? null : Number(r, "max_sustained_rps", path, at) ?? Number(r, "rps", path, at));
            if (confirmed && rps is null) return (null, null, null);
            var p99 = Number(r, "p99_ms", path, at)
                      ?? (r.TryGetProperty("quantiles_ms", out var q) && q.ValueKind == JsonValueKind.Object ? Number(q, "p99", path, $"{at}.quantiles_ms") : null);
            var cpu = Number(r, "cpu_us_per_request", path, at) ?? Cpu(r, path, at);
            return (rps, p99, cpu);
        }).ToList();
    }

    /// <summary><c>spread</c> of the capacity: <c>{min, max}</c>, <c>[min, max]</c>, or an object holding one under rps, capacity or confirmed_rps.</summary>
    private static Spread? SpreadField(JsonElement run, bool confirmed)
    {
        if (!run.TryGetProperty("spread", out var spread)) return null;
        if (!confirmed && MinMax(spread) is { } direct) return direct;
        if (spread.ValueKind != JsonValueKind.Object) return null;
        foreach (var name in confirmed ? ["confirmed_rps"] : new[] { "rps", "capacity", "max_sustained_rps" })
            if (spread.TryGetProperty(name, out var inner) && MinMax(inner) is { } nested) return nested;
        return null;
    }

    private static Spread? MinMax(JsonElement e) => e.ValueKind switch
    {
        JsonValueKind.Object when e.TryGetProperty("min", out var min) && e.TryGetProperty("max", out var max)
                                  && min.ValueKind == JsonValueKind.Number && max.ValueKind == JsonValueKind.Number => new Spread(min.GetDouble(), max.GetDouble()),
        JsonValueKind.Array when e.GetArrayLength() == 2 && e.EnumerateArray().All(x => x.ValueKind == JsonValueKind.Number) => new Spread(e[0].GetDouble(), e[1].GetDouble()),
        _ => null,
    };

    private static string Text(JsonElement element, string name, string path, string where) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String && value.GetString() is { Length: > 0 } text
            ? text
            : throw Bad(path, $"{where}.{name}", "is missing or not a string");

    private static double? Number(JsonElement element, string name, string path, string where)
    {
        if (!element.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null) return null;
        return value.ValueKind == JsonValueKind.Number ? value.GetDouble() : throw Bad(path, $"{where}.{name}", "is not a number");
    }

    private static InputException Bad(string path, string field, string why) => new(path, field, why);
}
