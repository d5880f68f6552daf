using Tank.Runner;

namespace Lab.Tools;

/// <summary>
/// One siege matrix: every queue (null: every queue of the catalogue) at every concurrency for
/// <see cref="Seconds"/>, <c>/write</c> then <c>/read</c>, with the given HTTP connection mode
/// (<c>close</c> or <c>keep-alive</c>), its files written under <see cref="Out"/>.
/// </summary>
public sealed record SiegeSettings(
    string Url,
    IReadOnlyList<string>? Queues,
    IReadOnlyList<int> Concurrencies,
    int Seconds,
    string Connection,
    string Out)
{
    /// <summary>The original study's matrix: 10 to 1000 users, 30 s each.</summary>
    public static readonly IReadOnlyList<int> StudyConcurrencies = [10, 25, 50, 100, 1000];

    public const int StudySeconds = 30;

    /// <summary><c>--quick</c>: two concurrencies, 3 s each.</summary>
    public static readonly IReadOnlyList<int> QuickConcurrencies = [10, 100];

    public const int QuickSeconds = 3;

    public static readonly IReadOnlyList<string> Connections = ["close", "keep-alive"];
}
