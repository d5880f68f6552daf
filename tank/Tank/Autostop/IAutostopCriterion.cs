using Tank.Stats;

namespace Tank.Autostop;

/// <summary>An autostop criterion, fed one closed second at a time like Tank's AbstractCriterion.notify.</summary>
public interface IAutostopCriterion
{
    /// <summary>Tank's exit code for this criterion (21 time, 22 http, 23 net).</summary>
    int ExitCode { get; }

    /// <summary>True when the criterion fires. <paramref name="elapsedSeconds"/> is wall time since the start.</summary>
    bool Notify(SecondStats second, double elapsedSeconds);

    /// <summary>Why it fired, for the console and meta.json.</summary>
    string Explain();
}
