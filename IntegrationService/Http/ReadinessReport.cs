namespace IntegrationService.Http;

/// <summary>The body of <c>/health/ready</c> (and <c>/health</c>).</summary>
public sealed record ReadinessReport(
    string Status,
    IReadOnlyDictionary<string, BackendHealth> Backends,
    IReadOnlyDictionary<string, string> Architectures);
