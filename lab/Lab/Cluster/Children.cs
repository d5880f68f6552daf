using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace Lab.Cluster;

/// <summary>The processes and ports a cluster command deals with: script/services, psql, the nodes.</summary>
public static class Children
{
    public const int SigTerm = 15;
    public const int SigKill = 9;

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);

    public static void Signal(int pid, int signal) => Kill(pid, signal);

    public static void Log(string message) => Console.Error.WriteLine($"==> {message}");

    /// <summary>Runs a program with this process's stdout and stderr (what it prints is the user's to read); fails unless it exits 0.</summary>
    public static void Run(string file, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null)
    {
        using var process = Start(file, args, environment, capture: false);
        process.WaitForExit();
        if (process.ExitCode != 0) throw new ClusterException($"{file} {string.Join(' ', process.StartInfo.ArgumentList)} exited {process.ExitCode}");
    }

    /// <summary>Runs a program and returns what it printed on stdout, or null when it failed.</summary>
    public static string? Output(string file, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null)
    {
        using var process = Start(file, args, environment, capture: true);
        var error = process.StandardError.ReadToEndAsync();
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        error.GetAwaiter().GetResult();
        return process.ExitCode == 0 ? output : null;
    }

    private static Process Start(string file, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment, bool capture)
    {
        var info = new ProcessStartInfo(file) { UseShellExecute = false, RedirectStandardInput = true, RedirectStandardOutput = capture, RedirectStandardError = capture };
        foreach (var arg in args) info.ArgumentList.Add(arg);
        foreach (var (name, value) in environment ?? new Dictionary<string, string>()) info.Environment[name] = value;
        var process = Process.Start(info) ?? throw new ClusterException($"could not start {file}");
        process.StandardInput.Close();
        return process;
    }

    /// <summary>
    /// Starts a program in a session of its own with stdin from /dev/null and its output in
    /// <paramref name="logFile"/>, so it outlives this command and holds none of its pipes (a
    /// caller reading this command's output to its end would otherwise wait for the program).
    /// Its pid goes to <paramref name="pidFile"/> (written by the shell that then becomes it).
    /// </summary>
    public static void StartDetached(string pidFile, string logFile, IEnumerable<string> command)
    {
        var info = new ProcessStartInfo("setsid") { UseShellExecute = false };
        foreach (var arg in new[] { "bash", "-c", "echo \"$$\" >\"$0\" && exec \"${@:2}\" </dev/null >\"$1\" 2>&1", pidFile, logFile }.Concat(command))
            info.ArgumentList.Add(arg);
        using var process = Process.Start(info) ?? throw new ClusterException($"could not start {string.Join(' ', command)}");
        // The pid file is there before this returns: down and pids read it.
        for (var i = 0; i < 100 && !File.Exists(pidFile); i++) Thread.Sleep(20);
    }

    /// <summary>The pid in a pid file, or null.</summary>
    public static int? PidIn(string pidFile) =>
        File.Exists(pidFile) && int.TryParse(File.ReadAllText(pidFile).Trim(), out var pid) ? pid : null;

    /// <summary>The process exists and its command line contains <paramref name="word"/> (a recycled pid does not count).</summary>
    public static bool Is(int? pid, string word)
    {
        try
        {
            return pid is { } p && File.ReadAllText($"/proc/{p}/cmdline").Replace('\0', ' ').Contains(word, StringComparison.Ordinal);
        }
        catch (IOException)
        {
            return false;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>Something accepts connections on the loopback port.</summary>
    public static bool PortOpen(int port)
    {
        using var client = new TcpClient();
        try
        {
            return client.ConnectAsync("127.0.0.1", port).Wait(TimeSpan.FromSeconds(2));
        }
        catch (AggregateException)
        {
            return false;
        }
    }
}
