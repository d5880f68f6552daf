using System.Globalization;

namespace Crash.RunLengths;

/// <summary>How long a fault may keep its targets from answering (a result's <c>fault_budget_s</c>), and what that figure is made of.</summary>
public sealed record FaultBudget(double Seconds, string Why)
{
    /// <summary>A fault that lasts as long as it is told to (db-stop, node-pause): its --stop-seconds.</summary>
    public static FaultBudget Stop(double stopSeconds) => new(stopSeconds, Text($"--stop-seconds {stopSeconds} s"));

    internal static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
