using System.Diagnostics;
using Crash.Control;
using Harness.Processes;

namespace Crash.Tests;

/// <summary>
/// A stand-in for script/services in a temporary folder, and a real process (a <c>sleep</c>) standing in for a
/// server's node: the tests write the script's answers (<see cref="Control"/>), the faults act on the process.
/// </summary>
internal sealed class StandInServices : IDisposable
{
    public string Dir { get; } = Directory.CreateTempSubdirectory("crash-services-").FullName;

    /// <summary>The process standing in for the server (or its node).</summary>
    public Process Server { get; } = Process.Start("sleep", "60");

    public string Script => Path.Combine(Dir, "services");

    /// <summary>
    /// Writes the stand-in: a <c>case "$1" in</c> of <paramref name="cases"/> (lines like <c>pid) echo 12 ;;</c>), any
    /// other verb failing with 2; returns the control that calls it.
    /// </summary>
    public ServerControl Control(string cases)
    {
        File.WriteAllText(Script, $"#!/bin/sh\ncase \"$1\" in\n{cases}\n  *) exit 2 ;;\nesac\n");
        if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(Script, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        return new ServerControl(Script);
    }

    public void Dispose()
    {
        if (!Server.HasExited)
        {
            Signals.Send(Server.Id, Signals.Cont);
            Server.Kill();
        }
        Server.Dispose();
        Directory.Delete(Dir, recursive: true);
    }
}
