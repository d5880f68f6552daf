namespace Crash.RunLengths;

/// <summary>What a fault's length is bounded by, for the run to outlast it (<see cref="RestartBudgets"/>).</summary>
public enum FaultLength
{
    /// <summary>Its target servers' restart (kill -9 or a power cut, then <c>script/services up</c>).</summary>
    ServersRestart,
    /// <summary>The service's restart.</summary>
    ServiceRestart,
    /// <summary>--stop-seconds: the servers stopped, then continued.</summary>
    StopTime,
}
