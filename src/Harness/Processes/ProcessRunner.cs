using System.Diagnostics;

namespace Harness.Processes;

/// <summary>
/// Runs the bench's helpers as processes (the service's tools, script/services, script/cluster,
/// wrk, version probes): arguments passed as a list, never through a shell; output captured.
/// </summary>
public static class ProcessRunner
{
    public static ProcessResult Run(string file, IEnumerable<string> args, CancellationToken cancel, string? workingDirectory = null)
    {
        var info = new ProcessStartInfo(file)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? "",
        };
        foreach (var arg in args) info.ArgumentList.Add(arg);
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

    /// <summary>As <see cref="Run"/>, failing with its stderr unless it exits 0.</summary>
    public static string Checked(string file, IReadOnlyList<string> args, CancellationToken cancel)
    {
        var result = Run(file, args, cancel);
        if (result.ExitCode != 0)
            throw new InvalidOperationException($"'{file} {string.Join(' ', args)}' exited {result.ExitCode}: {result.Error.Trim()}");
        return result.Output;
    }

    /// <summary>Whether a program is on PATH (a version probe of a missing server is skipped).</summary>
    public static bool OnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Any(dir => File.Exists(Path.Combine(dir, program)));
}
