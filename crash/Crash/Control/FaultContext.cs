namespace Crash.Control;

/// <summary>What a matrix's fault acts on: the servers it targets, the service, and how long a stop lasts.</summary>
internal sealed record FaultContext(ServerControl Servers, ServiceUnderTest Service, IReadOnlyList<string> Targets, double StopSeconds, FaultLog Log);
