using System.Text.Json;

namespace Lab.Report;

/// <summary>summary.json: the report's numbers for machines, with every warning the report shows.</summary>
public static class ReportSummary
{
    public static string Json(ReportInput input, IReadOnlyList<RunAnalysis> runs, IReadOnlyList<CrossCheck> crossChecks, double sloMs, DateTimeOffset generated) =>
        JsonSerializer.Serialize(new
        {
            generated_at = generated,
            // When the runs were measured: the report may be generated again later (lab report).
            measured_from = runs.Count == 0 ? (DateTimeOffset?)null : runs.Min(r => r.StartedAt),
            slo_ms = sloMs,
            max_error_rate = PhoutAnalyzer.MaxErrorRate,
            environment = input.Environment,
            warnings = ReportSections.Warnings(runs, crossChecks),
            runs = runs.Select(r => new
            {
                storage = r.Storage,
                scenario = r.Scenario,
                schedule = r.Schedule,
                load_type = r.LoadType,
                warmup_schedule = r.WarmupSchedule,
                durability = r.Durability,
                requests = r.Requests,
                duration_s = Math.Round(r.DurationSeconds, 3),
                achieved_rps = Math.Round(r.AchievedRps, 1),
                mean_ms = Math.Round(r.MeanMs, 3),
                latency_from = r.FromIntendedSend ? "intended send time (lateness + interval_real)" : "actual send (interval_real)",
                quantiles_ms = r.QuantilesMs,
                actual_send_quantiles_ms = r.ActualQuantilesMs,
                late_shots = r.LateShots,
                dropped_shots = r.DroppedShots,
                max_ms = r.MaxMs,
                errors = r.Errors,
                error_rate = r.ErrorRate,
                http_codes = r.HttpCodes.ToDictionary(c => c.Key.ToString(), c => c.Value),
                net_codes = r.NetCodes.ToDictionary(c => c.Key.ToString(), c => c.Value),
                max_sustained_rps = r.MaxSustainedRps,
                slo_held_at_peak = r.SloHeldAtPeak,
                peak_planned_rps = r.PeakPlannedRps,
                send_lateness_p99_us = r.SendLatenessP99Us,
                exit_code = r.ExitCode,
                autostop = r.Autostop,
                cold_start = r.ColdStart is null ? null : new
                {
                    first_seconds = r.ColdStart.WindowSeconds,
                    first_p99_ms = Math.Round(r.ColdStart.FirstP99Ms, 3),
                    typical_p99_ms = Math.Round(r.ColdStart.TypicalP99Ms, 3),
                },
                cpu = r.Cpu.Select(c => new
                {
                    process = c.Name,
                    pid = c.Pid,
                    cpu_seconds = Math.Round(c.Seconds, 3),
                    us_per_request = Math.Round(r.CpuUsPerRequest(c), 2),
                    percent_of_cores = Math.Round(r.CpuPercentOfCores(c), 1),
                }),
                queue = r.Queue is not { } q ? null : new
                {
                    queue = q.Queue,
                    depth_start = q.DepthStart,
                    depth_end = q.DepthEnd,
                    prefilled = q.Prefilled,
                    ran_dry = r.QueueRanDry,
                    no_content_answers = r.NoContentAnswers,
                },
                // The figures lab compare and lab verdict read (the details stay under capacity): the
                // cell's capacity (the median of its repetitions), its interval and each repetition.
                confirmed_rps = r.Capacity?.ConfirmedRps,
                confirmed_p99_ms = r.Capacity?.ConfirmedP99Ms,
                confirmed_lower_bound = r.Capacity?.LowerBound,
                confirmed_cpu_us_per_request = r.Capacity?.ConfirmedCpuUsPerRequest,
                interval = r.Capacity?.Interval is not { } iv ? null : new { low = iv.Low, high = iv.High, coverage = iv.Coverage, method = iv.Method },
                unstable = r.Capacity?.Unstable,
                unstable_because = r.Capacity is { Unstable: true } u ? u.UnstableBecause : null,
                repeats = r.Capacity is not { Confirmations.Count: > 0 } rc ? null : rc.Confirmations.Select(Repeat),
                spread = r.Capacity is not { Confirmations.Count: > 1, ConfirmedSpread: { } sp } ? null : new { confirmed_rps = new { min = sp.Min, max = sp.Max } },
                capacity = r.Capacity is not { } c ? null : new
                {
                    confirmed_rps = c.ConfirmedRps,
                    confirmed_p99_ms = c.ConfirmedP99Ms,
                    confirm_seconds = c.ConfirmSeconds,
                    lower_bound = c.LowerBound,
                    confirmed_count = c.ConfirmedCount,
                    stall_seconds = c.StallSeconds,
                    longest_stall_seconds = c.LongestStallSeconds,
                    reruns = c.Reruns,
                    holds = c.Holds.Select(h => new
                    {
                        repeat = h.Repeat, rate = h.Rate, seconds = h.Seconds, p99_ms = h.P99Ms, actual_p99_ms = h.ActualP99Ms, error_rate = h.ErrorRate, responses = h.Responses,
                        late = h.Late, held = h.Held, confirmation = h.Confirmation, generator_us_per_request = h.GeneratorUsPerRequest, service_gc_pause_ms = h.ServiceGcPauseMs, rested_seconds = h.RestedSeconds, server_forks = h.ServerForks, longest_fork_ms = h.LongestForkMs, cpu_us_per_request = h.CpuUsPerRequest,
                        foreign_cores = h.ForeignCores, reruns = h.Reruns, rerun_because = h.RerunBecause, generator_behind = h.GeneratorBehind, window_p99_ms = h.WindowP99Ms,
                    }),
                    confirmed_cpu_us_per_request = c.ConfirmedCpuUsPerRequest,
                    median = c.Median,
                    spread = c.Spread is not { } spread ? null : new { min = spread.Min, max = spread.Max },
                },
                server = r.Server is not { } s ? null : new
                {
                    missing = s.Missing,
                    routes = s.Routes,
                    requests = s.Requests,
                    mean_ms = Math.Round(s.MeanMs, 3),
                    p50_ms_estimated_from_buckets = s.P50Ms is { } p50 ? Math.Round(p50, 3) : (double?)null,
                    p99_ms_estimated_from_buckets = s.P99Ms is { } p99 ? Math.Round(p99, 3) : (double?)null,
                    non_2xx = s.Non2xx,
                    backend_timeouts = s.BackendTimeouts,
                    proxied_requests = s.ProxiedRequests,
                },
                operations = r.Operations.Count == 0 ? null : r.Operations.Select(o => new
                {
                    tag = o.Tag,
                    requests = o.Requests,
                    errors = o.Errors,
                    mean_ms = Math.Round(o.MeanMs, 3),
                    p50_ms = o.P50Ms,
                    p99_ms = o.P99Ms,
                }),
                cpu_wall_s = r.CpuWallSeconds,
                cores = r.Cores,
            }),
            crosscheck = crossChecks.Select(c => new
            {
                storage = c.Storage,
                scenario = c.Scenario,
                endpoint = c.Endpoint,
                connections = c.Connections,
                duration_s = c.DurationSeconds,
                wrk_rps = Math.Round(c.WrkRps, 1),
                tank_rps = Math.Round(c.TankRps, 1),
                difference_percent = Math.Round(c.DifferencePercent, 1),
                agree = c.Agree,
                verdict = c.Verdict(),
            }),
        }, new JsonSerializerOptions { WriteIndented = true }) + "\n";

    private static object Repeat(RepeatRecord x) => new
    {
        repeat = x.Repeat,
        order = x.Order,
        rps = x.Rps,
        kind = x.Kind,
        held_rps = x.HeldRps,
        failed_rps = x.FailedRps,
        confirmed = x.Confirmed,
        steps_rps = x.StepsRps,
        earlier_confirmations = x.EarlierConfirmations.Select(t => new { rps = t.Rps, p99_ms = t.P99Ms }),
        p99_ms = x.ConfirmedP99Ms,
        window_p99_ms = x.WindowP99Ms,
        stall_seconds = x.StallSeconds,
        longest_stall_seconds = x.LongestStallSeconds,
        lower_bound = x.LowerBound,
        cpu_us_per_request = x.CpuUsPerRequest,
        process_cpu_us_per_request = x.ProcessCpuUsPerRequest,
        reset = x.Reset is not { } r ? null : new { done = r.Done, waited_seconds = r.WaitedSeconds, waited_for = r.WaitedFor, idle = r.Idle },
        reruns = x.Reruns,
    };
}
