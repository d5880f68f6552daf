namespace Crash.Matrix;

/// <summary>What a fault hits: the architecture's servers (the catalogue's <c>servers</c>) or the service.</summary>
public enum FaultTarget
{
    Servers,
    Service,
}
