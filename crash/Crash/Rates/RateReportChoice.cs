namespace Crash.Rates;

/// <summary>
/// The bench report a matrix or cluster takes its rates from when none is named (--rate-from), and
/// why: <see cref="Directory"/> null when there is none and the fixed rate stands.
/// </summary>
public sealed record RateReportChoice(string? Directory, string Why);
