using Tank.Ammo;

namespace Lab.Verdicts;

/// <summary>The verdict: who qualifies, ranked (most headroom first, then least CPU per request), and everyone else, closest first.</summary>
public sealed record VerdictResult(VerdictTarget Target, IReadOnlyList<Candidate> Qualified, IReadOnlyList<Candidate> Others, IReadOnlyList<string> Scenarios)
{
    public Candidate? Closest => Others.FirstOrDefault();
}
