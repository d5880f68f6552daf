using Harness.Processes;
using System.Diagnostics;

namespace Crash.Control;

/// <summary>
/// Starts programs with stdin from /dev/null and stdout and stderr appended to a file. A file, not a
/// pipe: a server a program starts in the background inherits the descriptors, and a pipe would keep
/// crash waiting for an end that comes only when that server stops.
/// </summary>
internal static class ChildProcess
{
    /// <summary>Starts <paramref name="program"/> in <paramref name="directory"/> (null: crash's own), with <paramref name="environment"/> (null: crash's).</summary>
    public static Process Start(string program, IEnumerable<string> arguments, string logFile, string? directory = null,
        IReadOnlyDictionary<string, string>? environment = null) =>
        Start("exec \"$@\" </dev/null >>\"$0\" 2>&1", logFile, program, arguments, directory, environment);

    /// <summary>Runs <paramref name="program"/> to its end with its stdout and stderr on crash's stderr; its exit code.</summary>
    public static int RunToStderr(string program, params string[] arguments)
    {
        using var process = Start("exec \"$@\" </dev/null 1>&2", "crash", program, arguments, null, null);
        process.WaitForExit();
        return process.ExitCode;
    }

    /// <summary>Runs <paramref name="program"/> to its end; its exit code.</summary>
    public static int Run(string program, IEnumerable<string> arguments, string logFile)
    {
        using var process = Start(program, arguments, logFile);
        process.WaitForExit();
        return process.ExitCode;
    }

    // sh does the redirections and then execs the program: the process's id is the program's.
    private static Process Start(string script, string zero, string program, IEnumerable<string> arguments, string? directory,
        IReadOnlyDictionary<string, string>? environment)
    {
        var start = new ProcessStartInfo("/bin/sh") { UseShellExecute = false, WorkingDirectory = directory ?? "" };
        if (environment is not null)
        {
            start.Environment.Clear();
            foreach (var (name, value) in environment) start.Environment[name] = value;
        }
        foreach (var name in ServiceProcess.ToolOnlyVariables) start.Environment.Remove(name);
        foreach (var argument in new[] { "-c", script, zero, program }.Concat(arguments)) start.ArgumentList.Add(argument);
        return Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start");
    }

    /// <summary>Runs <paramref name="program"/> to its end and returns its stdout (its stderr goes to crash's); throws if it fails.</summary>
    public static string Output(string program, params string[] arguments)
    {
        var start = new ProcessStartInfo(program) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardInput = true };
        foreach (var name in ServiceProcess.ToolOnlyVariables) start.Environment.Remove(name);
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start");
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
            throw new InvalidOperationException($"{program} {string.Join(' ', arguments)} exited with {process.ExitCode}");
        return output;
    }
}
