namespace Wire.Connections;

/// <summary>A connection a <see cref="ConnectionKeeper{TConnection}"/> can keep: once broken it stays broken.</summary>
public interface IKeptConnection : IAsyncDisposable, IDisposable
{
    /// <summary>False once the connection broke or was disposed; it never opens again.</summary>
    bool IsOpen { get; }

    /// <summary>Completes when the connection broke or was disposed.</summary>
    Task Closed { get; }
}
