using System.Globalization;
using Crash.Commands;
using Crash.Rates;
using Crash.RunLengths;
using Harness.CommandLine;

namespace Crash.Matrix;

/// <summary>
/// A matrix or cluster run's options at its rate and length, checked. A rate from a report the user
/// named (--rate-from) that the run cannot plan (items: one location set a write) is bad input saying
/// where the rate and the length came from; a rate from the report taken by default falls back to the
/// fixed rate instead, saying why in the run's <c>rate_source</c>.
/// </summary>
internal static class PlannedRun
{
    /// <param name="run">The run's options but for its rate and length, which are set here (and whether it may end early, where <paramref name="length"/> was extended).</param>
    public static CrashOptions Options(RateRule rules, RunRate rate, RunLength length, string label, CrashOptions run)
    {
        try { return At(rate); }
        catch (InputException e) when (rate.FromReport && !rules.ReportNamed) { return At(rules.FixedInsteadOf(rate, e.Message)); }

        CrashOptions At(RunRate chosen)
        {
            try
            {
                return (run with
                {
                    Rate = chosen.Rate,
                    RateSource = chosen.Source,
                    RateFromReport = chosen.FromReport,
                    RateReport = chosen.Report,
                    Seconds = length.Seconds,
                    RequestedSeconds = length.RequestedSeconds,
                    SecondsSource = length.Source,
                    FaultAt = length.FaultAt,
                    FaultBudgetS = length.Fault.Seconds,
                    // Only the length added for the fault's budget can be cut short: --seconds as asked always runs.
                    EndEarly = run.EndEarly && length.Extended,
                }).Validated();
            }
            catch (InputException e) when (chosen.FromReport || length.Extended)
            {
                throw new InputException(string.Create(CultureInfo.InvariantCulture, $"{label} at {MatrixCommand.Rate(chosen)} for {length.Seconds} s ({length.Source}): {e.Message}"));
            }
        }
    }
}
