using Lab.Tools;

namespace Lab.Tests.Tools;

/// <summary>The hard kill deadline siege and ab run under (timeout -s KILL), on stand-ins that hang or are missing.</summary>
public sealed class ToolProcessTests
{
    [Fact]
    public async Task AProgramThatHangsIsKilledAtItsDeadlineAndWhatItPrintedIsKept()
    {
        // Ignores SIGTERM, as a deadlocked siege does: only KILL ends it.
        var run = await ToolProcess.RunAsync("bash", ["-c", "trap '' TERM; echo 'Transactions: 5 hits'; echo err >&2; sleep 30"], TimeSpan.FromSeconds(1));

        Assert.Equal(ToolRun.Killed, run.ExitCode);
        Assert.Contains("Transactions: 5 hits\n", run.Output);
        Assert.Contains("err\n", run.Output);
    }

    [Fact]
    public async Task AProgramsOwnExitCodeAndEnvironmentComeThrough()
    {
        var run = await ToolProcess.RunAsync("bash", ["-c", "echo \"$SIEGERC\"; exit 3"], TimeSpan.FromSeconds(10), new Dictionary<string, string> { ["SIEGERC"] = "/tmp/rc" });

        Assert.Equal(new ToolRun(3, "/tmp/rc\n"), run);
    }

    [Fact]
    public async Task AMissingProgramIs127() =>
        Assert.Equal(127, (await ToolProcess.RunAsync("no-such-program-here", [], TimeSpan.FromSeconds(5))).ExitCode);
}
