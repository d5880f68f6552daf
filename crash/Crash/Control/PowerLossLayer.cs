using Harness.Processes;
namespace Crash.Control;

/// <summary>
/// The servers power-loss runs hit, run on crash/powerloss's layer (POWERLOSS_MODE=ordered, as on
/// ext4) for the whole matrix, so that <c>script/services powercut</c> can drop what they did not
/// fsync; put back to normal at the end (down unmounts the layer and puts the files back), and up
/// again if they were up before.
/// </summary>
internal sealed class PowerLossLayer : IDisposable
{
    private readonly string _services;
    private readonly IReadOnlyList<string> _servers;
    private readonly IReadOnlyList<string> _wereUp;
    private readonly IDisposable _atExit;
    private int _removed;

    private PowerLossLayer(string services, IReadOnlyList<string> servers, IReadOnlyList<string> wereUp)
    {
        (_services, _servers, _wereUp) = (services, servers, wereUp);
        _atExit = ExitCleanup.Register(Remove);
    }

    /// <summary>Restarts <paramref name="servers"/> on the layer (none: nothing to do); throws if they do not come up.</summary>
    public static PowerLossLayer? Put(string services, IReadOnlyList<string> servers)
    {
        if (servers.Count == 0) return null;
        var wereUp = servers.Where(s => ProcessRunner.ToStderr(services, ["status", s]) == 0).ToList();
        Console.Error.WriteLine($"==> starting {string.Join(' ', servers)} on the power-loss layer (ordered)");
        var layer = new PowerLossLayer(services, servers, wereUp);
        if (ProcessRunner.ToStderr(services, ["down", .. servers]) != 0
            || ProcessRunner.ToStderr("env", ["POWERLOSS_MODE=ordered", services, "up", .. servers]) != 0)
        {
            layer.Dispose();
            throw new InvalidOperationException($"{string.Join(' ', servers)} did not start on the power-loss layer");
        }
        return layer;
    }

    public void Dispose()
    {
        Remove();
        _atExit.Dispose();
    }

    private void Remove()
    {
        if (Interlocked.Exchange(ref _removed, 1) == 1) return;
        Console.Error.WriteLine($"==> taking {string.Join(' ', _servers)} off the power-loss layer");
        ProcessRunner.ToStderr(_services, ["down", .. _servers]);
        if (_wereUp.Count > 0) ProcessRunner.ToStderr(_services, ["up", .. _wereUp]);
    }
}
