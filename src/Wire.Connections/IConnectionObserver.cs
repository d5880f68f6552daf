namespace Wire.Connections;

/// <summary>What a <see cref="ConnectionKeeper{TConnection}"/> reports, for the owner's log.</summary>
public interface IConnectionObserver<in TConnection>
{
    void Connected(TConnection connection);

    void ConnectFailed(Exception error);

    void ConnectionLost();
}
