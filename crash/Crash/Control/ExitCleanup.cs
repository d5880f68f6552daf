using System.Runtime.InteropServices;

namespace Crash.Control;

/// <summary>
/// What must be undone however crash ends (Ctrl-C, SIGTERM, SIGHUP or a normal exit): stopped
/// servers continued, the service under test stopped. A SIGKILL cannot be caught: for the one thing
/// that must never stay behind, stopped servers, <see cref="StoppedProcesses"/> has a watchdog too.
/// </summary>
internal static class ExitCleanup
{
    private static readonly Lock Gate = new();
    private static readonly List<Action> Actions = [];
    private static readonly List<PosixSignalRegistration> Registrations = [];

    /// <summary>Runs <paramref name="action"/> at exit until the returned handle is disposed.</summary>
    public static IDisposable Register(Action action)
    {
        lock (Gate)
        {
            if (Registrations.Count == 0)
            {
                foreach (var signal in new[] { PosixSignal.SIGINT, PosixSignal.SIGTERM, PosixSignal.SIGHUP })
                    Registrations.Add(PosixSignalRegistration.Create(signal, _ => RunAll()));
                AppDomain.CurrentDomain.ProcessExit += (_, _) => RunAll();
            }
            Actions.Add(action);
        }
        return new Handle(action);
    }

    // The signal's default action (ending the process) follows: the handler does not cancel it.
    private static void RunAll()
    {
        Action[] actions;
        lock (Gate)
        {
            actions = [.. Actions];
            Actions.Clear();
        }
        foreach (var action in actions)
        {
            try
            {
                action();
            }
            catch (Exception e) when (e is IOException or InvalidOperationException or System.ComponentModel.Win32Exception)
            {
                Console.Error.WriteLine($"crash: clean-up at exit: {e.Message}");
            }
        }
    }

    private sealed class Handle(Action action) : IDisposable
    {
        public void Dispose()
        {
            lock (Gate) Actions.Remove(action);
        }
    }
}
