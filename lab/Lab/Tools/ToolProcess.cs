using System.Diagnostics;
using System.Text;

namespace Lab.Tools;

/// <summary>
/// Runs siege or ab as a child process under a hard kill deadline: <c>timeout -s KILL</c>, as the
/// scripts did, because Debian's siege 4.0.7 can deadlock at the end of a <c>-t</c> run and ignore
/// anything gentler. Output is captured whatever happens, so the statistics printed before a hang
/// are kept. A second deadline in this process covers a <c>timeout</c> that itself does not return.
/// </summary>
public static class ToolProcess
{
    public static async Task<ToolRun> RunAsync(string program, IReadOnlyList<string> args, TimeSpan deadline,
        IReadOnlyDictionary<string, string>? environment = null, CancellationToken cancellationToken = default)
    {
        var start = new ProcessStartInfo("timeout")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true, // closed at once: siege reads nothing, as with </dev/null
            UseShellExecute = false,
        };
        foreach (var arg in (string[])["-s", "KILL", $"{Math.Ceiling(deadline.TotalSeconds)}s", program, .. args]) start.ArgumentList.Add(arg);
        foreach (var (key, value) in environment ?? new Dictionary<string, string>()) start.Environment[key] = value;

        var output = new StringBuilder();
        void Append(object _, DataReceivedEventArgs e)
        {
            if (e.Data is null) return;
            lock (output) output.Append(e.Data).Append('\n');
        }

        using var process = new Process { StartInfo = start };
        process.OutputDataReceived += Append;
        process.ErrorDataReceived += Append;
        try
        {
            process.Start();
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new ToolException($"cannot run timeout {program}: {e.Message}");
        }
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        using var backstop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        backstop.CancelAfter(deadline + TimeSpan.FromSeconds(15));
        try
        {
            await process.WaitForExitAsync(backstop.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None);
            cancellationToken.ThrowIfCancellationRequested();
            lock (output) return new ToolRun(ToolRun.Killed, output.ToString());
        }
        process.WaitForExit(); // drains the asynchronous readers
        lock (output) return new ToolRun(process.ExitCode, output.ToString());
    }
}
