namespace IntegrationService.Http;

public sealed record HealthReport(string Status, IReadOnlyDictionary<string, BackendHealth> Backends);
