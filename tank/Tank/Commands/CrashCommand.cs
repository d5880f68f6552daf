using Tank.Crash;

namespace Tank.Commands;

/// <summary>
/// <c>tank crash</c>: the loader of a crash-durability test. Writes at a fixed rate, runs the fault
/// command in the middle, reads every acknowledged key back and reports what was lost (see
/// tank/README.md). Prints one summary line on stdout and writes <c>--out</c>.
/// </summary>
public static class CrashCommand
{
    public static int Run(CliArgs args)
    {
        var options = CrashOptions.Parse(args);
        var output = Path.GetFullPath(options.Out);
        // Fail on an unwritable --out before the run, not after it.
        Directory.CreateDirectory(Path.GetDirectoryName(output)!);
        var (result, exitCode) = new CrashTest(options).RunAsync().GetAwaiter().GetResult();
        if (result is null) return exitCode;
        result.Write(output);
        Console.WriteLine(result.Summary());
        Console.Error.WriteLine($"tank: crash: exit code {exitCode}; result in {output}");
        return exitCode;
    }
}
