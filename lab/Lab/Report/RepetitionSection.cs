using System.Globalization;

namespace Lab.Report;

/// <summary>
/// The report's "Repetitions" section: one row per repetition of every cell (its round's place, the
/// capacity and its kind, the bracket, the confirmation with its p99 per window, the stalls, the
/// generator's and the servers' CPU per request, what the reset waited for, the holds run again),
/// and the method as run: the bench's profile.yaml and order.json from the report folder.
/// </summary>
public static class RepetitionSection
{
    public static readonly string[] Columns =
        ["architecture · scenario", "repetition", "order", "capacity", "held / not", "confirmation p99 (windows) ms", "stalls s (longest)", "generator µs/req", "servers µs/req", "reset waited for", "reruns"];

    public static List<string[]> Rows(IReadOnlyList<RunAnalysis> runs) =>
        runs.Where(r => r.Capacity is { Confirmations.Count: > 0 }).SelectMany(r => r.Capacity!.Confirmations.Select(x => new[]
        {
            $"{r.Storage} · {r.Scenario}",
            N(x.Repeat),
            x.Order > 0 ? N(x.Order) : "—",
            (x.Kind switch { "at_least" => "≥ ", "at_most" => "≤ ", _ => "" }) + N(x.Rps) + (x.StepsRps > 0 && x.StepsRps != x.Rps ? $" (steps {N(x.StepsRps)})" : ""),
            $"{(x.HeldRps is { } h ? N(h) : "—")} / {(x.FailedRps is { } f ? N(f) : "—")}",
            string.Concat(x.EarlierConfirmations.Select(t => $"✗ {D(t.P99Ms)} at {N(t.Rps)} → ")) +
                (x.ConfirmedP99Ms is { } p ? $"{(x.Confirmed ? "✓" : "✗")} {D(p)} ({string.Join(" / ", x.WindowP99Ms.Select(D))})" : "—"),
            x.StallSeconds > 0 ? $"{N(x.StallSeconds)} ({N(x.LongestStallSeconds)})" : "0",
            x.ProcessCpuUsPerRequest.TryGetValue("tank", out var g) ? D(g) : "—",
            x.CpuUsPerRequest is { } c ? D(c) : "—",
            x.Reset is { } reset ? reset.WaitedFor + (reset.Idle ? "" : " (not idle)") : "—",
            N(x.Reruns),
        })).ToList();

    public const string Method =
        "Each repetition of each cell, in the order its round ran (a seeded shuffle). \"capacity\": the rate a confirmation held (\"steps\": where p99 crossed the SLO on the steps, " +
        "when a confirmation failed there; \"≥\": every step held; \"≤\": no confirmation held, the capacity is below the lowest rate confirmed); \"held / not\": the rate a confirmation held, the lowest rate above it that did not (a step's or a confirmation's); " +
        "the confirmations: each that failed (p99 at its rate) →, then the one that decided, its p99 over the whole hold and per window (✓ held, ✗ did not); " +
        "stalls: its seconds with p99 over the SLO; CPU per answer over the repetition's holds, the generator's apart; what the reset before it waited for; holds run again.";

    /// <summary>The profile and the rounds' orders from the report folder, when the bench wrote them.</summary>
    public static (string? Profile, IReadOnlyList<string> Rounds) MethodAsRun(string directory)
    {
        var profile = Path.Combine(directory, "profile.yaml");
        var order = Path.Combine(directory, "order.json");
        var rounds = new List<string>();
        if (File.Exists(order))
        {
            using var json = System.Text.Json.JsonDocument.Parse(File.ReadAllText(order));
            if (json.RootElement.TryGetProperty("rounds", out var list) && list.ValueKind == System.Text.Json.JsonValueKind.Array)
                foreach (var round in list.EnumerateArray())
                    rounds.Add($"round {round.GetProperty("round").GetInt32()}: " + string.Join(", ", round.GetProperty("order").EnumerateArray()
                        .Select(c => $"{c.GetProperty("scenario").GetString()} on {c.GetProperty("storage").GetString()}")));
        }
        return (File.Exists(profile) ? File.ReadAllText(profile) : null, rounds);
    }

    private static string N(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string D(double value) => value.ToString(value >= 100 ? "0" : "0.##", CultureInfo.InvariantCulture);
}
