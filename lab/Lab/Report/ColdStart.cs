namespace Lab.Report;

/// <summary>A run whose first seconds were far slower than the rest at comparable rates: it was measured cold.</summary>
public sealed record ColdStart(double FirstP99Ms, double TypicalP99Ms, int WindowSeconds)
{
    public string Explain(RunAnalysis run) =>
        $"{run.Storage} · {run.Scenario}: p99 of the first {WindowSeconds} s was {ReportText.Ms(FirstP99Ms)} ms against a typical " +
        $"{ReportText.Ms(TypicalP99Ms)} ms at comparable rates later in the run — the service or a server was not at steady state when measuring began";
}
