using Harness.Catalogue;
using IntegrationService.Http;

namespace Crash.Matrix;

/// <summary>
/// One run of a matrix: an architecture, a kind of write, a fault, for a cache the architecture behind it,
/// and which of the row's <see cref="Repetitions"/> it is (failover rows are repeated: one run is no distribution).
/// </summary>
public sealed record MatrixRow(StorageDescription Storage, CrashKind Kind, FaultSpec Fault, string? TruthStorage)
{
    /// <summary>1 to <see cref="Repetitions"/>.</summary>
    public int Repetition { get; init; } = 1;

    public int Repetitions { get; init; } = 1;

    /// <summary>
    /// A queue run drains its queue to the end and counts what it reads: it starts from an empty queue, not behind
    /// what an earlier run or tool left (the bench leaves its last cell's writes: 43 055 messages kept a run's drain
    /// from reaching its own for 60 s). Other kinds read back only their own keys.
    /// </summary>
    public bool StartsFromAnEmptyQueue => Kind is CrashKind.Queue or CrashKind.LeasedQueue;

    private string Suffix => Repetitions > 1 ? $" #{Repetition}" : "";

    public string Label => $"{Storage.Name} {Kind.Name()} {Fault.Name}{Suffix}";
    public string FileName => $"{Storage.Name}-{Kind.Name()}-{Fault.Name}{(Repetitions > 1 ? $"-{Repetition}" : "")}.json";
}
