namespace Lab.Tools;

/// <summary>
/// One cell of the siege matrix as its raw file records it: the queue and operation, the
/// concurrency, the queue's depth right before and after (null: no answer), siege's exit code
/// (null when the file does not say) and what siege printed.
/// </summary>
public sealed record SiegeRun(
    string File,
    string? Queue,
    string? Op,
    int? Concurrency,
    long? DepthBefore,
    long? DepthAfter,
    int? ExitCode,
    SiegeStatistics Statistics);
