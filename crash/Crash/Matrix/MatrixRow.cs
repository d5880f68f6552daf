using Harness.Catalogue;
using IntegrationService.Http;

namespace Crash.Matrix;

/// <summary>One run of a matrix: an architecture, a kind of write, a fault, and for a cache the architecture behind it.</summary>
public sealed record MatrixRow(StorageDescription Storage, CrashKind Kind, FaultSpec Fault, string? TruthStorage)
{
    public string Label => $"{Storage.Name} {Kind.Name()} {Fault.Name}";
    public string FileName => $"{Storage.Name}-{Kind.Name()}-{Fault.Name}.json";
}
