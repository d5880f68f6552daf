namespace IntegrationService.Http;

public sealed record BackendHealth(string Status, double LatencyMs, string? Error);
