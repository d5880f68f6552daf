using System.Diagnostics;

namespace Harness.Processes;

/// <summary>
/// Every way the tools run another program (the service's tools, script/services, psql, wrk, version
/// probes, the cluster's nodes): arguments as a list, never through a shell of the caller's making, and
/// the tool-only settings (<see cref="ServiceProcess.ToolOnlyVariables"/>) never passed on.
/// </summary>
public static class ProcessRunner
{
    /// <summary>Runs to its end with stdout and stderr captured; killed (with its children) when <paramref name="cancel"/> fires.</summary>
    public static ProcessResult Run(string file, IEnumerable<string> args, CancellationToken cancel, string? workingDirectory = null,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        var info = Info(file, args, environment, replaceEnvironment: false);
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.RedirectStandardInput = true;
        info.WorkingDirectory = workingDirectory ?? "";
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start {file}");
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEndAsync(cancel);
        var error = process.StandardError.ReadToEndAsync(cancel);
        try
        {
            process.WaitForExitAsync(cancel).GetAwaiter().GetResult();
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        return new ProcessResult(process.ExitCode, output.GetAwaiter().GetResult(), error.GetAwaiter().GetResult());
    }

    /// <summary>As <see cref="Run"/>, failing with its stderr unless it exits 0; its stdout.</summary>
    public static string Checked(string file, IReadOnlyList<string> args, CancellationToken cancel,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        var result = Run(file, args, cancel, environment: environment);
        if (result.ExitCode != 0)
            throw new InvalidOperationException($"'{file} {string.Join(' ', args)}' exited {result.ExitCode}: {result.Error.Trim()}");
        return result.Output;
    }

    /// <summary>
    /// Runs to its end with stdin from /dev/null and everything it prints on this process's stderr (the
    /// user's to read, and never in a tool's own output); its exit code.
    /// </summary>
    public static int ToStderr(string file, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null)
    {
        using var process = Shell("exec \"$@\" </dev/null 1>&2", "-", file, args, null, environment, replaceEnvironment: false);
        process.WaitForExit();
        return process.ExitCode;
    }

    /// <summary>
    /// Starts <paramref name="file"/> with stdin from /dev/null and stdout and stderr appended to
    /// <paramref name="logFile"/>. A file, not a pipe: a server it starts in the background inherits the
    /// descriptors, and a pipe would keep the caller waiting for an end that comes only when that server
    /// stops. <paramref name="environment"/>, when given, is the whole environment.
    /// </summary>
    public static Process StartLogged(string file, IEnumerable<string> args, string logFile, string? workingDirectory = null,
        IReadOnlyDictionary<string, string>? environment = null) =>
        Shell("exec \"$@\" </dev/null >>\"$0\" 2>&1", logFile, file, args, workingDirectory, environment, replaceEnvironment: true);

    /// <summary>As <see cref="StartLogged"/>, run to its end; its exit code.</summary>
    public static int RunLogged(string file, IEnumerable<string> args, string logFile)
    {
        using var process = StartLogged(file, args, logFile);
        process.WaitForExit();
        return process.ExitCode;
    }

    /// <summary>
    /// Starts a program in a session of its own with stdin from /dev/null and its output in
    /// <paramref name="logFile"/>, so it outlives this process and holds none of its pipes. Its pid goes
    /// to <paramref name="pidFile"/> (written by the shell that then becomes it), there before this returns.
    /// </summary>
    public static void StartDetached(string pidFile, string logFile, IEnumerable<string> command)
    {
        var info = Info("setsid", ["bash", "-c", "echo \"$$\" >\"$0\" && exec \"${@:2}\" </dev/null >\"$1\" 2>&1", pidFile, logFile, .. command],
            null, replaceEnvironment: false);
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start {string.Join(' ', command)}");
        for (var i = 0; i < 100 && !File.Exists(pidFile); i++) Thread.Sleep(20);
    }

    /// <summary>The pid in a pid file, or null.</summary>
    public static int? PidIn(string pidFile) =>
        File.Exists(pidFile) && int.TryParse(File.ReadAllText(pidFile).Trim(), out var pid) ? pid : null;

    /// <summary>Whether a program is on PATH (a version probe of a missing server is skipped).</summary>
    public static bool OnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Any(dir => File.Exists(Path.Combine(dir, program)));

    // sh does the redirections and then execs the program: the process's id is the program's.
    private static Process Shell(string script, string zero, string file, IEnumerable<string> args, string? workingDirectory,
        IReadOnlyDictionary<string, string>? environment, bool replaceEnvironment)
    {
        var info = Info("/bin/sh", ["-c", script, zero, file, .. args], environment, replaceEnvironment);
        info.WorkingDirectory = workingDirectory ?? "";
        return Process.Start(info) ?? throw new InvalidOperationException($"{file} did not start");
    }

    private static ProcessStartInfo Info(string file, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment, bool replaceEnvironment)
    {
        var info = new ProcessStartInfo(file) { UseShellExecute = false };
        if (environment is not null)
        {
            if (replaceEnvironment) info.Environment.Clear();
            foreach (var (name, value) in environment) info.Environment[name] = value;
        }
        foreach (var name in ServiceProcess.ToolOnlyVariables) info.Environment.Remove(name);
        foreach (var arg in args) info.ArgumentList.Add(arg);
        return info;
    }
}
